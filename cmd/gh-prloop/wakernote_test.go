package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/schedule"
	"github.com/prloop/gh-prloop/statestore"
)

// A loop that start or apply leaves behind says what wakes it: the
// installed schedule, or nothing yet (then how to install it, or watch);
// the demo's temporary state says nothing.
func TestWakerNoteSaysWhatWakesTheLoop(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	env := planEnv{getenv: func(k string) string {
		if k == statestore.EnvStateDir {
			return root
		}
		return ""
	}, homeDir: func() (string, error) { return t.TempDir(), nil }}
	statusIs := func(st schedule.Status, err error) func(context.Context, string) (schedule.Status, error) {
		return func(_ context.Context, r string) (schedule.Status, error) {
			if r != root {
				t.Errorf("the schedule of %s asked, want %s", r, root)
			}
			return st, err
		}
	}
	for _, c := range []struct {
		name   string
		status func(context.Context, string) (schedule.Status, error)
		temp   string
		want   string
	}{
		{"installed", statusIs(schedule.Status{Installed: true}, nil), "", "The schedule wakes it every 2 minutes"},
		{"not-installed", statusIs(schedule.Status{}, nil), "", "Nothing wakes it yet: `gh-prloop schedule install`"},
		{"unknown", statusIs(schedule.Status{}, errors.New("no systemctl")), "", "Nothing wakes it yet"},
		{"demo", statusIs(schedule.Status{Installed: true}, nil), root, ""},
	} {
		e := env
		e.scheduleStatus, e.tempState = c.status, c.temp
		got := wakerNote(context.Background(), e, "KEY")
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want it to start %q", c.name, got, c.want)
		}
		if c.want != "" && !strings.Contains(got, "`gh-prloop watch KEY`") {
			t.Errorf("%s: %q does not name the watch console", c.name, got)
		}
	}
}
