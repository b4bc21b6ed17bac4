package initial_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim/testbed"
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

// A foreign push to the head branch while a run is interrupted before its
// push: the resumed push finds neither the leased old value nor the final
// head, halts naming what it saw, and nothing after it runs.
func TestForeignPushHaltsThePush(t *testing.T) {
	w := newWorld(t, nil)
	w.approve()
	if _, err := w.execute(func(p string) bool { return p == "before:push" }); !errors.Is(err, initial.ErrCrashed) {
		t.Fatalf("first run: %v", err)
	}
	ctx := context.Background()
	if _, err := w.bed.Runner.Run(ctx, w.bed.Upstream, "push", "-q", "-f", testbed.RemoteName, testbed.BaseBranch+":refs/heads/"+testbed.HeadBranch); err != nil {
		t.Fatal(err)
	}
	_, err := w.execute(nil)
	var h *initial.HaltError
	if !errors.As(err, &h) || h.Op != policy.OpPush || !strings.Contains(h.Saw, "neither the leased") {
		t.Fatalf("err = %v, want a push halt naming the remote value", err)
	}
	if _, ok := w.bed.Repo.PR(1); ok {
		t.Fatal("a pull request was opened after the halt")
	}
}
