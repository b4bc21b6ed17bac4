package initial_test

import (
	"errors"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
)

// Every operation is interrupted before and after its side effect in turn
// (the reservation is written, the receipt is not), then the run is
// applied again: the end state has exactly one of each side effect.
func TestCrashBeforeAndAfterEverySideEffect(t *testing.T) {
	probe := newWorld(t, func(in *planner.Inputs) { in.Head = "prloop/retry-budget" })
	probe.approve()
	ops := probe.plan.Doc.InitialManifest.Operations
	for _, op := range ops {
		for _, when := range []string{"before:", "after:"} {
			point := when + op
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t, func(in *planner.Inputs) { in.Head = "prloop/retry-budget" })
				w.approve()
				hit := false
				_, err := w.execute(func(p string) bool {
					if p == point {
						hit = true
						return true
					}
					return false
				})
				if !hit {
					t.Skipf("%s has no side effect to interrupt on this plan", point)
				}
				if !errors.Is(err, initial.ErrCrashed) {
					t.Fatalf("first run: %v, want the injected crash", err)
				}
				w.events = nil
				res, err := w.execute(nil)
				if err != nil {
					t.Fatalf("resumed run: %v", err)
				}
				w.checkEndState(res)
				var fin *initial.Event
				for i, e := range w.events {
					if e.Event == initial.EventFinished && e.Op == op && !alreadyJournaled(e) {
						fin = &w.events[i]
					}
				}
				if fin == nil {
					t.Fatalf("%s was not finished by the resumed run", op)
				}
				// After the side effect, the resumed run must find it by
				// observation instead of doing it again (fetching is the
				// one operation that is simply repeated).
				if when == "after:" && op != policy.OpFetchBase && !fin.Reconciled {
					t.Fatalf("%s: the resumed run acted again instead of finding the effect", op)
				}
			})
		}
	}
}

func alreadyJournaled(e initial.Event) bool { return e.Detail == "already done (journal)" }
