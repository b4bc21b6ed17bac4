package remediate_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/internal/looptest"
	"github.com/prloop/gh-prloop/loop/remediate"
)

// Every side effect of a round is interrupted before and after in turn
// (reserved, no receipt), then the round is executed again: exactly one
// edit, commit, push, reply per thread, request and update.
func TestCrashBeforeAndAfterEverySideEffect(t *testing.T) {
	ops := []string{policy.OpEditFiles, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads + "/1",
		policy.OpReplyToCodexThreads + "/2", policy.OpRequestCodexReview, policy.OpUpdateAutomation}
	for _, op := range ops {
		for _, when := range []string{"before:", "after:"} {
			point := when + op
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				w := looptest.New(t)
				fixer := w.FixerScript(w.Paths()...)
				pushes0 := w.Bed.GitServer.Pushes()
				hit := false
				_, err := w.Execute(func(p string) bool {
					if p == point {
						hit = true
						return true
					}
					return false
				}, fixer)
				if !hit {
					t.Fatalf("%s was never reached (err %v)", point, err)
				}
				if !errors.Is(err, remediate.ErrCrashed) {
					t.Fatalf("first run: %v, want the injected crash", err)
				}
				w.Events = nil
				res, err := w.Execute(nil, fixer)
				if err != nil {
					t.Fatalf("resumed run: %v", err)
				}
				checkEnd(w, res, pushes0)
				checkEditedOnce(w)
				base, _, _ := strings.Cut(op, "/")
				// (After the first of two replies the resumed run finds that
				// one and still posts the second: checkEnd counts them.)
				if when == "after:" && base != policy.OpUpdateAutomation && op != policy.OpReplyToCodexThreads+"/1" {
					for _, e := range w.Events {
						if e.Event == "operation-finished" && e.Op == base && !e.Reconciled {
							t.Fatalf("%s: the resumed run acted again instead of finding the effect", op)
						}
					}
				}
			})
		}
	}
}

// checkEditedOnce: the fixer's change is in each approved file once (a
// resumed edit-files never runs the fixer on top of its own result).
func checkEditedOnce(w *looptest.World) {
	w.T.Helper()
	for _, p := range w.Paths() {
		data, err := os.ReadFile(w.Bed.Path(p))
		if err != nil {
			w.T.Fatal(err)
		}
		if n := strings.Count(string(data), "fixed by the test fixer"); n != 1 {
			w.T.Fatalf("%s carries the fixer's change %d times, want 1", p, n)
		}
	}
}
