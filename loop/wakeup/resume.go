package wakeup

import (
	"context"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/remediate"
)

// ReasonResume is the reason of an execute action that finishes an
// interrupted execution (not an evaluator reason).
const ReasonResume = "resume"

// interrupted names the execute action whose journal has a reservation
// for the stored, approved (or autonomous) plan but has not reached
// update-automation: "" when none.
func (w *waker) interrupted() (string, error) {
	c := w.cp
	if c.RemediationManifest == nil {
		return "", nil
	}
	j, err := journal.New(w.run, remediate.Phase(int(c.FixRounds)+1), *c.RemediationPlanHash, c.RemediationManifest.Operations, nil)
	if err != nil {
		return "", err
	}
	entries, err := j.Load()
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e != nil {
			return evaluate.ActionExecuteRemediation, nil
		}
	}
	return "", nil
}

// resume hands the interrupted plan to its executor again under a fresh
// claim. The executor skips receipted operations and reconciles the one
// reserved without a receipt; it never re-validates (its first operation
// already ran).
func (w *waker) resume(ctx context.Context, o Outcome, action string) Outcome {
	res := evaluate.Result{Action: action, Reason: ReasonResume, PlanHash: *w.cp.RemediationPlanHash,
		Message: "finish the interrupted execution of plan " + *w.cp.RemediationPlanHash}
	o.Action, o.Reason, o.Message, o.PlanHash = res.Action, res.Reason, res.Message, res.PlanHash
	return w.execute(ctx, o, nil, res)
}
