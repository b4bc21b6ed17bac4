package wakeup

import (
	"context"
	"slices"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/remediate"
)

// ReasonResume is the reason of an execute action that finishes an
// interrupted execution (not an evaluator reason).
const ReasonResume = "resume"

// interrupted names the execute action whose journal holds a reservation
// for the stored plan while the plan is still stored (its executor has not
// recorded its end in the checkpoint): "" when none.
func (w *waker) interrupted() (string, error) {
	c := w.cp
	if c.FinalizedAt != nil {
		return "", nil // Finish recorded its end: nothing is left to resume
	}
	var phase, action, hash string
	var ops []string
	switch {
	case c.RemediationManifest != nil:
		phase, action, hash = remediate.Phase(int(c.FixRounds)+1), evaluate.ActionExecuteRemediation, *c.RemediationPlanHash
		ops = c.RemediationManifest.Operations
	case c.FinalizationManifest != nil && slices.Equal(c.FinalizationManifest.Operations, []string{policy.OpDeleteAutomation}):
		phase, action, hash = finalize.PhaseFinish, evaluate.ActionFinishFinalization, *c.FinalizationPlanHash
		ops = c.FinalizationManifest.Operations
	case c.FinalizationManifest != nil:
		phase, action, hash = finalize.Phase, evaluate.ActionExecuteFinalization, *c.FinalizationPlanHash
		ops = c.FinalizationManifest.Operations
		ops = ops[:len(ops)-1] // delete-owned-automation is Finish's
	default:
		return "", nil
	}
	if len(ops) == 0 {
		return "", nil
	}
	j, err := journal.New(w.run, phase, hash, ops, nil)
	if err != nil {
		return "", err
	}
	entries, err := j.Load()
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e != nil {
			return action, nil
		}
	}
	return "", nil
}

// resume hands the interrupted plan to its executor again under a fresh
// claim. The executor skips receipted operations and reconciles the one
// reserved without a receipt; it never re-validates (its first operation
// already ran).
func (w *waker) resume(ctx context.Context, o Outcome, action string) Outcome {
	hash := ""
	if w.cp.RemediationPlanHash != nil {
		hash = *w.cp.RemediationPlanHash
	} else if w.cp.FinalizationPlanHash != nil {
		hash = *w.cp.FinalizationPlanHash
	}
	res := evaluate.Result{Action: action, Reason: ReasonResume, PlanHash: hash, Message: "finish the interrupted execution of plan " + hash}
	o.Action, o.Reason, o.Message, o.PlanHash = res.Action, res.Reason, res.Message, res.PlanHash
	o.Actions = append(o.Actions, action)
	return w.execute(ctx, o, nil, res)
}
