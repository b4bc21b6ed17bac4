package wakeup_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// A finish-finalization killed after it deleted the automation leaves a
// loop the registry no longer lists: `wakeup --all` (wakeup.All, what the
// timer runs) still finds it by its journal, resumes the finish and
// records finalized_at; once that is recorded, --all leaves it alone.
func TestWakeupAllFinishesALoopKilledAfterItsAutomationWasDeleted(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings}, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	point := "after:" + policy.OpDeleteAutomation
	d := w.remediationDeps(func(p string) bool { return p == point })
	crashed := false
	for range 8 {
		w.codexAnswers()
		o := wakeup.One(t.Context(), d, w.key)
		if strings.Contains(o.Error, finalize.ErrCrashed.Error()) {
			crashed = true
			break
		}
		if o.Error != "" || o.Exit == wakeup.ExitHalt {
			t.Fatalf("wakeup: %+v", o)
		}
	}
	if !crashed {
		t.Fatalf("the crash at %s was not reached", point)
	}
	if _, ok, _ := w.reg.Get(context.Background(), w.key); ok {
		t.Fatal("the automation exists although the crash came after its deletion")
	}
	outs, err := wakeup.All(context.Background(), w.remediationDeps(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 1 || outs[0].Key != w.key || outs[0].Action != evaluate.ActionFinishFinalization || outs[0].Reason != wakeup.ReasonResume || outs[0].Error != "" {
		t.Fatalf("wakeup --all after the crash: %+v", outs)
	}
	w.checkFinalized()
	if outs, err := wakeup.All(context.Background(), w.remediationDeps(nil)); err != nil || len(outs) != 0 {
		t.Fatalf("wakeup --all after the end was recorded: %+v %v", outs, err)
	}
}
