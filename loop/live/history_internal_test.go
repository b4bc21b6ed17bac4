package live

import (
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// A console reopened after a wakeup executed a plan says the loop waits for
// the next observation, not that the executed plan is still to execute;
// a stored plan awaiting approval still reads as one.
func TestExecutedPlanIsNotOfferedAgain(t *testing.T) {
	cases := []struct {
		rec        wakeup.Record
		action     string
		reason     string
		wordsStart string
	}{
		{wakeup.Record{Time: "2026-03-02T10:00:00Z", Action: evaluate.ActionExecuteRemediation, Reason: "approved", PlanHash: "ab", Done: "fix round 1: commit 0123456"},
			evaluate.ActionWait, status.ReasonExecuted, "wait — the plan was executed"},
		{wakeup.Record{Time: "2026-03-02T10:00:00Z", Action: evaluate.ActionExecuteFinalization, Reason: "approved", PlanHash: "cd", Done: "finalization: marked the PR ready"},
			evaluate.ActionWait, status.ReasonExecuted, "wait — the plan was executed"},
		{wakeup.Record{Time: "2026-03-02T10:00:00Z", Action: evaluate.ActionAwaitApproval, Reason: "approval-required", PlanHash: "ef", Done: "waiting for approval"},
			evaluate.ActionAwaitApproval, "approval-required", "approve"},
	}
	for _, c := range cases {
		var l status.Loop
		l.Automation.Status = "ACTIVE"
		fromHistory(&l, []wakeup.Record{c.rec}, &checkpoint.Checkpoint{})
		if l.Next.Action != c.action || l.Next.Reason != c.reason {
			t.Errorf("%s: next %s/%s, want %s/%s", c.rec.Action, l.Next.Action, l.Next.Reason, c.action, c.reason)
		}
		if w := l.NextWords(); len(w) < len(c.wordsStart) || w[:len(c.wordsStart)] != c.wordsStart {
			t.Errorf("%s: words %q, want them to start %q", c.rec.Action, w, c.wordsStart)
		}
	}
}

// A loop whose finish recorded its end reads as done, not as
// "the plan was executed" (the finalized console said "reason executed —
// stored the finalization plan …").
func TestFinishedLoopReadsAsDone(t *testing.T) {
	at := "2026-03-02T10:00:05Z"
	rec := wakeup.Record{Time: "2026-03-02T10:00:00Z", Action: evaluate.ActionFinishFinalization, Reason: "post-mutation", PlanHash: "ab", Done: "stored the finalization plan ab"}
	var l status.Loop
	fromHistory(&l, []wakeup.Record{rec}, &checkpoint.Checkpoint{FinalizedAt: &at})
	if l.Next.Action != evaluate.ActionDone || l.Next.Reason != evaluate.ReasonFinalized {
		t.Fatalf("next %+v, want done/finalized", l.Next)
	}
	// Without the recorded end (killed before it), the next wakeup decides.
	var k status.Loop
	fromHistory(&k, []wakeup.Record{rec}, &checkpoint.Checkpoint{})
	if k.Next.Action != evaluate.ActionWait || k.Next.Reason != status.ReasonExecuted {
		t.Fatalf("next %+v, want wait/executed", k.Next)
	}
}
