package wakeup

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/initial"
)

// FinalizationExecutor runs execute-finalization through loop/finalize
// (mark-draft-ready, resolve the eligible Codex threads) and then records
// the pending request as completed: the next evaluation asks for the
// post-mutation plan, whose only operation is delete-owned-automation.
func FinalizationExecutor(d finalize.Deps, events func(finalize.Event)) Executor {
	return func(ctx context.Context, job Job) (string, error) {
		c := job.Checkpoint
		var res *finalize.Result
		if m := c.FinalizationManifest; m != nil && slices.Equal(m.Operations, []string{policy.OpDeleteAutomation}) {
			// A ready PR without Codex threads to resolve (a clean first
			// review): the first plan has no GitHub operation, only the
			// deletion Finish does on the post-mutation plan. Re-validate,
			// as before any operation, then go on to that plan.
			got, err := job.Revalidate(ctx)
			if err != nil {
				return "", fmt.Errorf("rebuilding the finalization plan from fresh observations: %w; nothing was done", err)
			}
			if got != job.PlanHash {
				return "", fmt.Errorf("the world changed since the plan was made: it now hashes to %s, not %s; nothing was done", got, job.PlanHash)
			}
			res = &finalize.Result{PlanHash: job.PlanHash}
		} else {
			var err error
			res, err = finalize.Execute(ctx, d, finalize.Job{Run: job.Run, Manifest: job.Manifest, PlanHash: job.PlanHash,
				State: job.State, Revalidate: job.Revalidate, Events: events})
			if err != nil {
				return "", finalizeErr(err)
			}
		}
		if key := c.RequestKey(); !slices.Contains(c.CompletedRequestKeys, key) {
			c.CompletedRequestKeys = append(c.CompletedRequestKeys, key)
		}
		c.ClearPlans()
		if err := job.Save(c); err != nil {
			return "", err
		}
		return FinalizationDone(res), nil
	}
}

// FinishExecutor runs finish-finalization through loop/finalize.Finish:
// the owned automation is deleted, finalized_at and the fresh merge-gate
// report go into the checkpoint (idempotently), and the loop is done.
func FinishExecutor(d finalize.Deps, events func(finalize.Event)) Executor {
	return func(ctx context.Context, job Job) (string, error) {
		c := job.Checkpoint
		res, err := finalize.Finish(ctx, d, finalize.FinishJob{Run: job.Run, Manifest: job.Manifest, PlanHash: job.PlanHash,
			State: job.State, Revalidate: job.Revalidate, Events: events,
			Finalized: func(ctx context.Context, f finalize.Finalized) error {
				at, report := f.At, f.Report
				c.FinalizedAt, c.MergeGateReport = &at, &report
				return job.Save(c)
			}})
		if err != nil {
			return "", finalizeErr(err)
		}
		return fmt.Sprintf("finalized at %s: deleted automation %s", res.FinalizedAt, res.Deleted), nil
	}
}

func finalizeErr(err error) error {
	var h *initial.HaltError
	if errors.As(err, &h) {
		return &HaltError{Reason: "finalization-" + h.Op, Message: h.Saw}
	}
	return err
}

// FinalizationDone says what execute-finalization did, in words.
func FinalizationDone(res *finalize.Result) string {
	ready := "the PR was already ready"
	if res.MarkedReady {
		ready = "marked the PR ready for review"
	}
	threads := "threads"
	if res.Resolved == 1 {
		threads = "thread"
	}
	return fmt.Sprintf("finalization: %s, resolved %d %s", ready, res.Resolved, threads)
}
