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
// (the reservation is written, the receipt is not): each run stops at the
// next point and the following run resumes what it left, then a last run
// completes. After a side effect the resumed run must find it by
// observation instead of doing it again (fetching is the one operation that
// is simply repeated). The end state has exactly one of each side effect.
func TestCrashBeforeAndAfterEverySideEffect(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(in *planner.Inputs) { in.Head = "prloop/retry-budget" })
	w.approve()
	ops := w.plan.Doc.InitialManifest.Operations
	pending := "" // the operation the previous run was stopped after
	for _, op := range ops {
		for _, when := range []string{"before:", "after:"} {
			point := when + op
			w.events = nil
			hit := false
			_, err := w.execute(func(p string) bool {
				hit = hit || p == point
				return p == point
			})
			if !hit || !errors.Is(err, initial.ErrCrashed) {
				t.Fatalf("%s: the run was not stopped there (%v)", point, err)
			}
			w.checkResumed(pending)
			pending = ""
			if when == "after:" && op != policy.OpFetchBase {
				pending = op
			}
		}
	}
	w.events = nil
	res, err := w.execute(nil)
	if err != nil {
		t.Fatalf("last run: %v", err)
	}
	w.checkResumed(pending)
	w.checkEndState(res)
}

// checkResumed asserts that op, stopped after its side effect by the
// previous run, was finished by this run by observation, not by acting.
func (w *world) checkResumed(op string) {
	w.t.Helper()
	if op == "" {
		return
	}
	for _, e := range w.events {
		if e.Event == initial.EventFinished && e.Op == op && !alreadyJournaled(e) {
			if !e.Reconciled {
				w.t.Fatalf("%s: the resumed run acted again instead of finding the effect", op)
			}
			return
		}
	}
	w.t.Fatalf("%s was not finished by the resumed run", op)
}

func alreadyJournaled(e initial.Event) bool { return e.Detail == "already done (journal)" }

// A foreign push to the head branch while a run is interrupted before its
// push: the resumed push finds neither the leased old value nor the final
// head, halts naming what it saw, and nothing after it runs.
func TestForeignPushHaltsThePush(t *testing.T) {
	t.Parallel()
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
