package status

import (
	"fmt"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
)

// Halt reasons the executors add to the evaluator's (a round they abort).
const (
	ReasonOutsidePaths     = "fixer-outside-paths"
	ReasonValidationFailed = "validation-failed"
)

// haltWords are the halts a human meets most, in words. Any other reason
// is shown as it is, with the evaluator's message.
var haltWords = map[string]string{
	evaluate.ReasonRequestTimeout:    "Codex did not answer the request before its deadline",
	evaluate.ReasonHeadDrift:         "someone else pushed to the head branch",
	evaluate.ReasonBranchDrift:       "the pull request's head branch changed",
	evaluate.ReasonBaseDrift:         "the base branch changed",
	evaluate.ReasonRemoteDrift:       "the remote changed",
	evaluate.ReasonPRClosed:          "the pull request was closed",
	evaluate.ReasonPRMerged:          "the pull request was merged",
	evaluate.ReasonFixRoundLimit:     "the fix-round limit is reached",
	evaluate.ReasonStaleClaim:        "a claim expired without its holder finishing",
	evaluate.ReasonInvalidPlan:       "the stored plan is not valid",
	evaluate.ReasonCodexNotice:       "Codex posted a notice instead of a review",
	ReasonOutsidePaths:               "the fixer changed a path outside the approved plan",
	ReasonValidationFailed:           "a validation command failed",
	evaluate.ReasonAutomationMissing: "the automation is missing from the registry",
	evaluate.ReasonAmbiguousResponse: "a Codex response is neither findings nor zero findings",
}

// HaltWords says why a loop halted, in words.
func HaltWords(reason string) string {
	if w, ok := haltWords[reason]; ok {
		return w
	}
	if reason == "" {
		return "halted"
	}
	return reason
}

// Ref names the loop in a command a person types: OWNER/REPO#NUMBER, which
// every KEY argument accepts and which is short enough for an 80-column
// hint, else the key.
func (l Loop) Ref() string {
	if l.Repository != "" && l.Number > 0 {
		return fmt.Sprintf("%s#%d", l.Repository, l.Number)
	}
	return l.Key
}

// HaltNext says what a person can do about a halt: most halts end when
// the cause is fixed and the automation resumed (its next wakeup re-reads
// everything and core decides again); a merged pull request or a used-up
// fix-round limit do not, and the loop is ended instead.
func HaltNext(reason, key string) string {
	switch reason {
	case evaluate.ReasonPRMerged:
		return "the pull request is merged: `gh-prloop automations delete " + key + "` ends the loop"
	case evaluate.ReasonFixRoundLimit:
		return "every fix round is used: finish the review by hand; `gh-prloop automations delete " + key + "` ends the loop"
	}
	return "fix the cause, then `gh-prloop automations resume " + key + "`"
}

// ReasonExecuted is the console's reason (never core's) for a loop whose
// last wakeup carried out an execute action: nothing is decided until the
// next wakeup observes its result.
const ReasonExecuted = "executed"

// NextWords is the evaluator's next action in words, as the console's
// "next" line and the table's column say it.
func (l Loop) NextWords() string {
	n := l.Next
	switch l.Phase() {
	case PhaseFinalized:
		return "done — the loop finished and its automation is deleted"
	case PhaseHalted:
		return "halted — " + HaltWords(l.HaltReason())
	case PhaseExecuting:
		return "executing the approved " + kind(n.PlanKind, l.Execution) + " plan"
	}
	switch n.Action {
	case evaluate.ActionWait:
		switch n.Reason {
		case evaluate.ReasonAwaitingResponse:
			return "wait — for Codex to answer the review request"
		case evaluate.ReasonClaimed:
			return "wait — another wakeup holds the claim"
		case ReasonExecuted:
			return "wait — the plan was executed; the next wakeup observes the result"
		}
		return "wait"
	case evaluate.ActionAwaitApproval:
		return "approve — the " + orPlan(n.PlanKind) + " plan waits for its hash"
	case evaluate.ActionPlanRemediation:
		return "plan the fixes for the actionable threads"
	case evaluate.ActionExecuteRemediation:
		return "execute the approved remediation plan"
	case evaluate.ActionPlanFinalization:
		return "plan the finalization (ready for review, resolve threads)"
	case evaluate.ActionExecuteFinalization:
		return "execute the approved finalization plan"
	case evaluate.ActionFinishFinalization:
		return "finish — delete the automation and record the merge gates"
	case evaluate.ActionReport:
		return "report"
	case "":
		return "not evaluated yet"
	}
	return n.Action
}

func kind(k string, e *Execution) string {
	if k == "" && e != nil {
		k = e.PlanKind
	}
	return orPlan(k)
}

func orPlan(k string) string {
	if k == "" {
		return "current"
	}
	return k
}

// Countdown says how long until t, from now, in whole seconds: "1m 05s",
// "42s", or "overdue 12s" once it has passed. Zero t is "".
func Countdown(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := t.Sub(now).Truncate(time.Second)
	prefix := ""
	if d < 0 {
		prefix, d = "overdue ", -d
	}
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%s%dh %02dm", prefix, h, m)
	case m > 0:
		return fmt.Sprintf("%s%dm %02ds", prefix, m, s)
	}
	return fmt.Sprintf("%s%ds", prefix, s)
}

// StatusWord is the automation status the table and header show: ACTIVE,
// PAUSED, DONE (deleted after finalization) or HALTED.
func (l Loop) StatusWord() string {
	switch l.Phase() {
	case PhaseFinalized:
		return "DONE"
	case PhaseHalted:
		if l.Automation.Status == "PAUSED" {
			return "PAUSED"
		}
		return "HALTED"
	}
	if l.Automation.Status == "" {
		return "UNKNOWN"
	}
	return l.Automation.Status
}

// NextShort is NextWords for a table column: the action and its object,
// without the explanation.
func (l Loop) NextShort() string {
	switch l.Phase() {
	case PhaseFinalized:
		return "done"
	case PhaseHalted:
		return "halted: " + l.HaltReason()
	case PhaseExecuting:
		return "executing " + kind(l.Next.PlanKind, l.Execution)
	case PhaseCodexRunning:
		return "wait: Codex is reviewing"
	}
	switch l.Next.Action {
	case evaluate.ActionWait:
		if l.Next.Reason == evaluate.ReasonAwaitingResponse {
			return "wait for Codex"
		}
		if l.Next.Reason == ReasonExecuted {
			return "wait: executed"
		}
		return "wait"
	case evaluate.ActionAwaitApproval:
		return "approve " + orPlan(l.Next.PlanKind) + " plan"
	case "":
		return "not evaluated yet"
	}
	return l.Next.Action
}
