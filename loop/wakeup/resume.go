package wakeup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
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

// receiptRecordedRound finishes the journal of a fix round whose
// update-automation recorded the round in the checkpoint (which drops the
// round's plan) and was killed before its receipt. interrupted() cannot
// see that reservation any more — the plan it would look it up by is gone
// — so without this it stayed without a receipt forever. The plan comes
// from the state the execution ran on (ExecStateFile, kept until the next
// execution), and the checkpoint is the observation: the reservation is
// receipted only when it announced exactly the round the checkpoint holds.
// It reports whether it wrote a receipt.
func (w *waker) receiptRecordedRound() (bool, error) {
	c := w.cp
	if c.FixRounds < 1 {
		return false, nil
	}
	data, err := w.run.Read(ExecStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	raw, err := canon.Parse(data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", ExecStateFile, err)
	}
	var errs problems.List
	st := schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		return false, fmt.Errorf("%s: %w", ExecStateFile, errs)
	}
	m := st.RemediationManifest
	if m == nil || st.FixRounds+1 != c.FixRounds {
		return false, nil // the last execution was not this round's fix
	}
	last := len(m.Operations) - 1
	if last < 0 || m.Operations[last] != policy.OpUpdateAutomation {
		return false, nil
	}
	mb, err := canon.Marshal(m)
	if err != nil {
		return false, err
	}
	j, err := journal.New(w.run, remediate.Phase(int(c.FixRounds)), canon.Hash(mb), m.Operations, w.d.Now)
	if err != nil {
		return false, err
	}
	entries, err := j.Load()
	if err != nil {
		return false, err
	}
	e := entries[last]
	if e == nil || e.Done() {
		return false, nil
	}
	if !slices.Contains(c.CompletedRequestKeys, m.RequestKey) {
		return false, fmt.Errorf("fix round %d: %s is reserved without a receipt but the checkpoint does not complete request %s", c.FixRounds, policy.OpUpdateAutomation, m.RequestKey)
	}
	u := remediate.Update{Round: int(c.FixRounds), FinalHeadSHA: c.RequestHeadSHA, RequestCommentID: c.RequestCommentID,
		RequestCreatedAt: c.RequestCreatedAt, CompletedRequestKey: m.RequestKey}
	receipt, err := remediate.RecordedUpdateReceipt(e.Intent, u)
	if err != nil {
		return false, fmt.Errorf("fix round %d: %w", c.FixRounds, err)
	}
	if _, err := j.Complete(last, receipt); err != nil {
		return false, err
	}
	return true, nil
}
