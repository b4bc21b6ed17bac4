package status

import (
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
)

func TestPhase(t *testing.T) {
	running := &Request{Codex: CodexRunning}
	exec := &Execution{Operations: []Operation{{Name: "commit", State: OpDone}, {Name: "push", State: OpRunning}}}
	failedExec := &Execution{Operations: []Operation{{Name: "commit", State: OpFailed}, {Name: "push", State: OpPending}}}
	cases := []struct {
		name string
		l    Loop
		want Phase
	}{
		{"nothing yet", Loop{}, PhaseWaiting},
		{"waiting", Loop{Next: Next{Action: evaluate.ActionWait}}, PhaseWaiting},
		{"codex running", Loop{Request: running, Next: Next{Action: evaluate.ActionWait}}, PhaseCodexRunning},
		{"await approval", Loop{Request: running, Next: Next{Action: evaluate.ActionAwaitApproval}}, PhaseAwaitingApproval},
		{"executing wins over the decision", Loop{Execution: exec, Next: Next{Action: evaluate.ActionAwaitApproval}}, PhaseExecuting},
		{"a failed op is no longer executing", Loop{Execution: failedExec, Next: Next{Action: evaluate.ActionWait}}, PhaseWaiting},
		{"halt", Loop{Next: Next{Action: evaluate.ActionHalt, Reason: evaluate.ReasonPRClosed}}, PhaseHalted},
		{"paused with a reason", Loop{Automation: Automation{Status: "PAUSED", Reason: "stale-claim"}}, PhaseHalted},
		{"halt wins over executing", Loop{Execution: exec, Next: Next{Action: evaluate.ActionHalt}}, PhaseHalted},
		{"done", Loop{Next: Next{Action: evaluate.ActionDone}}, PhaseFinalized},
		{"finalized wins over a pause", Loop{FinalizedAt: time.Unix(1, 0), Automation: Automation{Status: "PAUSED", Reason: "x"}}, PhaseFinalized},
	}
	for _, c := range cases {
		if got := c.l.Phase(); got != c.want {
			t.Errorf("%s: phase %q, want %q", c.name, got, c.want)
		}
	}
	if !PhaseHalted.NeedsHuman() || !PhaseAwaitingApproval.NeedsHuman() || PhaseWaiting.NeedsHuman() || PhaseExecuting.NeedsHuman() {
		t.Error("NeedsHuman must be true exactly for approval and halt")
	}
}

func TestHaltReasonAndWords(t *testing.T) {
	l := Loop{Next: Next{Action: evaluate.ActionHalt, Reason: evaluate.ReasonHeadDrift}, Automation: Automation{Status: "PAUSED", Reason: "other"}}
	if l.HaltReason() != evaluate.ReasonHeadDrift {
		t.Errorf("the evaluator's reason wins: %q", l.HaltReason())
	}
	if got := l.NextWords(); got != "halted — someone else pushed to the head branch" {
		t.Errorf("NextWords = %q", got)
	}
	l.Next = Next{Action: evaluate.ActionWait}
	if l.HaltReason() != "other" || !strings.Contains(l.NextWords(), "halted — other") {
		t.Errorf("pause reason: %q / %q", l.HaltReason(), l.NextWords())
	}
	for _, r := range []string{evaluate.ReasonRequestTimeout, evaluate.ReasonPRClosed, evaluate.ReasonPRMerged, evaluate.ReasonFixRoundLimit, evaluate.ReasonStaleClaim, ReasonOutsidePaths, ReasonValidationFailed} {
		if HaltWords(r) == r {
			t.Errorf("halt reason %q has no words", r)
		}
	}
	if HaltWords("new-reason") != "new-reason" || HaltWords("") != "halted" {
		t.Error("unknown reasons are shown as they are")
	}
}

func TestNextWords(t *testing.T) {
	for action, want := range map[string]string{
		evaluate.ActionAwaitApproval:       "approve — the remediation plan waits for its hash",
		evaluate.ActionPlanRemediation:     "plan the fixes for the actionable threads",
		evaluate.ActionExecuteFinalization: "execute the approved finalization plan",
		"":                                 "not evaluated yet",
	} {
		l := Loop{Next: Next{Action: action, PlanKind: "remediation"}}
		if got := l.NextWords(); got != want {
			t.Errorf("%q: %q, want %q", action, got, want)
		}
	}
	w := Loop{Next: Next{Action: evaluate.ActionWait, Reason: evaluate.ReasonAwaitingResponse}}
	if !strings.Contains(w.NextWords(), "for Codex") {
		t.Errorf("wait: %q", w.NextWords())
	}
}

func TestCountdown(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		42 * time.Second:                      "42s",
		65*time.Second + 900*time.Millisecond: "1m 05s",
		2*time.Hour + 3*time.Minute:           "2h 03m",
		-12 * time.Second:                     "overdue 12s",
		0:                                     "0s",
	} {
		if got := Countdown(now.Add(d), now); got != want {
			t.Errorf("Countdown(%v) = %q, want %q", d, got, want)
		}
	}
	if Countdown(time.Time{}, now) != "" {
		t.Error("zero time has no countdown")
	}
}

func TestStatusWord(t *testing.T) {
	for _, c := range []struct {
		l    Loop
		want string
	}{
		{Loop{Automation: Automation{Status: "ACTIVE"}}, "ACTIVE"},
		{Loop{Automation: Automation{Status: "PAUSED", Reason: "pr-closed"}}, "PAUSED"},
		{Loop{Automation: Automation{Status: "ACTIVE"}, Next: Next{Action: evaluate.ActionHalt}}, "HALTED"},
		{Loop{Next: Next{Action: evaluate.ActionDone}}, "DONE"},
		{Loop{}, "UNKNOWN"},
	} {
		if got := c.l.StatusWord(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l.Automation, got, c.want)
		}
	}
}

func TestNextShort(t *testing.T) {
	for _, c := range []struct {
		l    Loop
		want string
	}{
		{Loop{Next: Next{Action: evaluate.ActionWait, Reason: evaluate.ReasonAwaitingResponse}}, "wait for Codex"},
		{Loop{Next: Next{Action: evaluate.ActionWait}, Request: &Request{Codex: CodexRunning}}, "wait: Codex is reviewing"},
		{Loop{Next: Next{Action: evaluate.ActionAwaitApproval, PlanKind: "finalization"}}, "approve finalization plan"},
		{Loop{Next: Next{Action: evaluate.ActionHalt, Reason: evaluate.ReasonPRMerged}}, "halted: pr-merged"},
		{Loop{Next: Next{Action: evaluate.ActionDone}}, "done"},
		{Loop{Next: Next{Action: evaluate.ActionPlanRemediation}}, "plan-remediation"},
	} {
		if got := c.l.NextShort(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l.Next, got, c.want)
		}
	}
}
