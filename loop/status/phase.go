package status

import "github.com/prloop/gh-prloop/core/evaluate"

// Phase is what the loop is doing, in the console's terms.
type Phase string

// Phases, in the order a round goes through them.
const (
	PhaseWaiting          Phase = "waiting"           // for Codex or for the next wakeup
	PhaseCodexRunning     Phase = "codex-running"     // Codex has picked up the request
	PhaseAwaitingApproval Phase = "awaiting-approval" // a plan waits for its hash
	PhaseExecuting        Phase = "executing"         // a plan's operations are running
	PhaseHalted           Phase = "halted"            // paused with a reason; a human must act
	PhaseFinalized        Phase = "finalized"         // done: the automation is gone
)

// Phase derives the phase. A halt wins over everything but a recorded
// finalization, because a halted loop must never look as if it were
// progressing; an operation list in flight wins over the decision that
// started it.
func (l Loop) Phase() Phase {
	switch {
	case !l.FinalizedAt.IsZero() || l.Next.Action == evaluate.ActionDone:
		return PhaseFinalized
	case l.Next.Action == evaluate.ActionHalt || (l.Automation.Status == "PAUSED" && l.Automation.Reason != ""):
		return PhaseHalted
	case l.Execution != nil && l.Execution.inFlight():
		return PhaseExecuting
	case l.Next.Action == evaluate.ActionAwaitApproval:
		return PhaseAwaitingApproval
	case l.Request != nil && l.Request.Codex == CodexRunning:
		return PhaseCodexRunning
	}
	return PhaseWaiting
}

// inFlight reports whether any operation is still to finish and none failed.
func (e *Execution) inFlight() bool {
	for _, op := range e.Operations {
		if op.State == OpFailed {
			return false
		}
	}
	for _, op := range e.Operations {
		if op.State == OpPending || op.State == OpRunning {
			return true
		}
	}
	return false
}

// HaltReason is the reason the loop halted: the evaluator's, else the
// automation's pause reason.
func (l Loop) HaltReason() string {
	if l.Next.Action == evaluate.ActionHalt && l.Next.Reason != "" {
		return l.Next.Reason
	}
	return l.Automation.Reason
}

// NeedsHuman reports whether the phase asks for a person: the console rings
// the bell when a loop enters it.
func (p Phase) NeedsHuman() bool { return p == PhaseAwaitingApproval || p == PhaseHalted }
