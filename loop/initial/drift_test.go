package initial_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
)

// Drift between approval and execution: nothing runs (no journal record,
// no push, no pull request), the error is a DriftError and names the field.
func TestDriftStopsBeforeFetchBase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(t *testing.T, w *world)
		field  string
	}{
		{"a file edited", func(t *testing.T, w *world) {
			if err := os.WriteFile(w.bed.Path(testbed.ModifiedFile), []byte("package httpclient\n// edited after approval\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "/initial_snapshot/diff_sha256"},
		{"the base moved", func(t *testing.T, w *world) {
			if _, err := w.bed.PushBase(context.Background(), "Someone else's change", map[string]string{"NOTES.md": "x\n"}); err != nil {
				t.Fatal(err)
			}
		}, "/initial_snapshot/base_sha"},
		{"an open PR added", func(t *testing.T, w *world) {
			if _, err := w.bed.OpenPR("Opened meanwhile", "by hand"); err != nil {
				t.Fatal(err)
			}
		}, "/initial_snapshot/open_prs_sha256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			a := w.approve()
			c.change(t, w)
			w.pushes0 = w.bed.GitServer.Pushes()
			_, err := w.execute(nil)
			var de *initial.DriftError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DriftError", err)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Fatalf("the drift error does not name %s: %v", c.field, err)
			}
			j, _ := journal.New(w.run(), initial.Phase, a.PlanHash, w.plan.Doc.InitialManifest.Operations, nil)
			entries, err := j.Load()
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range entries {
				if e != nil {
					t.Fatalf("operation %d was reserved despite drift", i)
				}
			}
			if n := w.bed.GitServer.Pushes() - w.pushes0; n != 0 {
				t.Fatalf("%d pushes despite drift", n)
			}
			for _, e := range w.events {
				if e.Event == initial.EventStarted {
					t.Fatalf("operation %s started despite drift", e.Op)
				}
			}
		})
	}
}
