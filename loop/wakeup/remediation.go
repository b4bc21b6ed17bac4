package wakeup

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/statestore"
)

// RemediationOptions are what the remediation executor needs from the
// process besides its Deps: the console hooks of approval-gated sessions
// (nil headless) and its events. The executor hands them on only in
// approval-gated mode: an autonomous loop never waits on a person.
// WaitForHandEdit is used only by a loop without a fixer; ConfirmDiff
// shows every approval-gated round's diff before the commit, the fixer's
// too.
type RemediationOptions struct {
	WaitForHandEdit func(ctx context.Context, paths []string) error
	ConfirmDiff     func(ctx context.Context, diff []byte) error
	Events          func(remediate.Event)
}

// RemediationExecutor runs execute-remediation through loop/remediate: the
// checkout, push URL and risk record the run was approved with, the run's
// fixer, the caller's re-validation, and update-automation recorded in the
// checkpoint (idempotently: a resumed run may report the same round again).
func RemediationExecutor(d remediate.Deps, co func(ctx context.Context, run *statestore.Run) (root, transportURL string, err error), opts RemediationOptions) Executor {
	return func(ctx context.Context, job Job) (string, error) {
		root, url, err := co(ctx, job.Run)
		if err != nil {
			return "", err
		}
		risk, err := riskRecord(job.Run)
		if err != nil {
			return "", err
		}
		c := job.Checkpoint
		var fixer []string
		if len(c.Fixer) > 0 {
			fixer = slices.Clone(c.Fixer)
		}
		answered := slices.Clone(c.RemediationManifest.ActionableThreads)
		edit, confirm := opts.WaitForHandEdit, opts.ConfirmDiff
		if c.Mode != policy.ModeApprovalGated {
			edit, confirm = nil, nil
		}
		if fixer == nil && edit == nil {
			// Headless (a timer's wakeup): nobody can edit here; the
			// console can, and resumes exactly here.
			return "", fmt.Errorf("this fix round has no fixer: it is edited by hand in the console; open `gh-prloop watch %s` (nothing was done)",
				c.AutomationKey)
		}
		res, err := remediate.Execute(ctx, d, remediate.Job{
			Run: job.Run, Manifest: job.Manifest, PlanHash: job.PlanHash, State: job.State,
			Checkout: root, TransportURL: url, RiskRecord: risk, Fixer: fixer,
			Revalidate:      job.Revalidate,
			WaitForHandEdit: edit, ConfirmDiff: confirm, Events: opts.Events,
			UpdateAutomation: func(ctx context.Context, u remediate.Update) error {
				if err := NextRound(c, u, answered); err != nil {
					return err
				}
				return job.Save(c)
			},
		})
		if err != nil {
			var h *initial.HaltError
			if errors.As(err, &h) {
				return "", &HaltError{Reason: "remediation-" + h.Op, Message: h.Saw}
			}
			return "", err
		}
		return fmt.Sprintf("fix round %d: commit %s, %d replies, request %d", res.Round, res.CommitSHA, res.Replies, res.RequestCommentID), nil
	}
}

// NextRound records a finished fix round in the checkpoint (PROTOCOL §5's
// update-automation): the round count, the completed request key, the new
// pending request on the pushed head, the threads answered this round;
// the round's plan and approval are dropped. Applying the same update
// again changes nothing.
func NextRound(c *checkpoint.Checkpoint, u remediate.Update, answered []schema.Thread) error {
	if int64(u.Round) == c.FixRounds && c.RequestCommentID == u.RequestCommentID {
		return nil // already recorded
	}
	if int64(u.Round) != c.FixRounds+1 {
		return fmt.Errorf("update-automation for round %d, the checkpoint is at round %d", u.Round, c.FixRounds)
	}
	if u.CompletedRequestKey != c.RequestKey() {
		return fmt.Errorf("update-automation completes request %s, the pending one is %s", u.CompletedRequestKey, c.RequestKey())
	}
	created, err := schema.ParseTime(u.RequestCreatedAt)
	if err != nil {
		return fmt.Errorf("update-automation request_created_at: %w", err)
	}
	c.FixRounds = int64(u.Round)
	c.CompletedRequestKeys = append(c.CompletedRequestKeys, u.CompletedRequestKey)
	c.RequestCommentID, c.RequestNodeID = u.RequestCommentID, ""
	c.RequestCreatedAt = schema.FormatTime(created)
	c.RequestDeadline = schema.FormatTime(created.Add(policy.RequestTimeoutSecs * time.Second))
	c.RequestHeadSHA = u.FinalHeadSHA
	byID := map[string]schema.Thread{}
	for _, t := range append(c.AnsweredThreads, answered...) {
		byID[t.ID] = t
	}
	c.AnsweredThreads = c.AnsweredThreads[:0]
	for _, t := range byID {
		c.AnsweredThreads = append(c.AnsweredThreads, t)
	}
	slices.SortFunc(c.AnsweredThreads, func(a, b schema.Thread) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	c.ClearPlans()
	return nil
}

// riskRecord is the canonical risk record the initial execution kept in its
// fetch-base reservation ("" under the safe isolation).
func riskRecord(run *statestore.Run) (string, error) {
	a, err := run.ReadApproval()
	if err != nil {
		return "", err
	}
	raw, err := canon.Parse(a.Document)
	if err != nil {
		return "", err
	}
	errs := problems.List{}
	doc := schema.DecodeInitialDocument(raw, "", &errs)
	if !errs.Empty() {
		return "", errs
	}
	j, err := journal.New(run, initial.Phase, a.PlanHash, doc.InitialManifest.Operations, nil)
	if err != nil {
		return "", err
	}
	entries, err := j.Load()
	if err != nil {
		return "", err
	}
	if entries[0] == nil {
		return "", errors.New("the run's initial execution has no fetch-base reservation")
	}
	return entries[0].Intent["risk_record"], nil
}

// CheckoutPush is the checkout root and validated push URL of the run, as
// observed now through package local.
func (l LocalCheckout) CheckoutPush(ctx context.Context, run *statestore.Run) (string, string, error) {
	obs, err := l.observe(ctx, run)
	if err != nil {
		return "", "", err
	}
	return obs.Root, obs.TransportURL, nil
}
