package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// startTestRoot is the production root with `start` rebuilt on env.
func startTestRoot(env planEnv, out, errOut *bytes.Buffer) *cobra.Command {
	root := newRootCmd(bytes.NewReader(nil), out, errOut)
	for _, c := range root.Commands() {
		if c.Name() == "start" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newStartCmd(env))
	return root
}

// Issue 8 item 3: an autonomous start without --fixer is a usage error
// (exit 2) before any network or git; a --fixer that does not split is one
// too.
func TestStartAutonomousWithoutFixerIsAUsageError(t *testing.T) {
	env := planEnv{
		client: func(*cobra.Command) (*ghclient.Client, error) {
			t.Error("start reached for GitHub before refusing")
			return nil, os.ErrInvalid
		},
		git: func() (*gitx.Runner, error) {
			t.Error("start reached for git before refusing")
			return nil, os.ErrInvalid
		},
	}
	for _, args := range [][]string{
		{"start", "--mode", "autonomous", "--title", "t"},
		{"start", "--mode", "autonomous", "--title", "t", "--fixer", "fix 'unterminated"},
		{"start", "--mode", "autonomous", "--title", "t", "--fixer", "   "},
	} {
		var out, errOut bytes.Buffer
		_, stderr, code := runPlanTestCLI(t, startTestRoot(env, &out, &errOut), &out, &errOut, args...)
		if code != 2 || !strings.Contains(stderr, "--fixer") {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming --fixer", args, code, stderr)
		}
	}
}

// `start --fixer 'CMD …'` records the fixer argv in the run, split like a
// shell line (quotes kept together) but never run by a shell, for the
// loop's first wakeup to copy into the checkpoint.
func TestStartStoresTheFixerInTheRun(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	t.Setenv("GH_PRLOOP_STATE_DIR", "")
	bed := newPlanTestBed(t)
	state := t.TempDir()
	env := bedPlanEnv(bed, state)
	var out, errOut bytes.Buffer
	stdout, stderr, code := runPlanTestCLI(t, startTestRoot(env, &out, &errOut), &out, &errOut,
		"start", "--mode", "autonomous", "--title", "Add a retry budget", "-C", bed.Path("internal"),
		"--fixer", `my-fixer --note "two words" $HOME;rm`)
	if code != 0 {
		t.Fatalf("start: exit %d: %s\n%s", code, stderr, stdout)
	}
	var found []string
	err := filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == wakeup.FixerFile {
			found = append(found, p)
		}
		return err
	})
	if err != nil || len(found) != 1 {
		t.Fatalf("fixer files %v (%v), want exactly one", found, err)
	}
	data, err := os.ReadFile(found[0])
	if err != nil {
		t.Fatal(err)
	}
	var argv []string
	if err := json.Unmarshal(data, &argv); err != nil {
		t.Fatal(err)
	}
	if want := []string{"my-fixer", "--note", "two words", "$HOME;rm"}; !reflect.DeepEqual(argv, want) {
		t.Fatalf("stored fixer %q, want %q", argv, want)
	}
}
