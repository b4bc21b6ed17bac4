package wakeup

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/statestore"
)

// ErrNoPendingPlan: the loop has no remediation or finalization plan to
// approve (a wakeup builds one when core asks for it).
var ErrNoPendingPlan = errors.New("the loop has no plan waiting for approval; run `gh-prloop wakeup` first")

// ErrHashMismatch: the typed hash is not the pending plan's.
var ErrHashMismatch = errors.New("the hash is not the pending plan's")

// Pending is the plan of a loop that waits for approval.
type Pending struct {
	Kind       string // remediation | finalization
	PlanHash   string
	Manifest   []byte // canonical
	Checkpoint *checkpoint.Checkpoint
	Approved   bool
}

// PendingPlan reads the loop's stored plan (no network).
func PendingPlan(ctx context.Context, root, key string) (*Pending, error) {
	run, err := OpenRun(root, key)
	if err != nil {
		return nil, err
	}
	c, err := checkpoint.Read(run)
	if err != nil {
		return nil, err
	}
	return pendingOf(c)
}

func pendingOf(c *checkpoint.Checkpoint) (*Pending, error) {
	p := &Pending{Checkpoint: c}
	var m any
	switch {
	case c.RemediationManifest != nil:
		p.Kind, p.PlanHash, m, p.Approved = "remediation", *c.RemediationPlanHash, c.RemediationManifest, c.RemediationApproval != nil
	case c.FinalizationManifest != nil:
		p.Kind, p.PlanHash, m, p.Approved = "finalization", *c.FinalizationPlanHash, c.FinalizationManifest, c.FinalizationApproval != nil
	default:
		return nil, ErrNoPendingPlan
	}
	var err error
	p.Manifest, err = canon.Marshal(m)
	return p, err
}

// Approve records the approval of the loop's pending plan when hash is
// exactly its plan hash. The next wakeup re-validates the plan against
// fresh observations before anything runs.
func Approve(ctx context.Context, d Deps, key, hash string, approverID int64) (*Pending, error) {
	return withCheckpoint(ctx, d, key, func(c *checkpoint.Checkpoint) (*Pending, error) {
		p, err := pendingOf(c)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(hash) != p.PlanHash {
			return nil, fmt.Errorf("%w: typed %q, the %s plan is %s", ErrHashMismatch, hash, p.Kind, p.PlanHash)
		}
		now := time.Now
		if d.Now != nil {
			now = d.Now
		}
		a := &schema.Approval{ApprovedAt: schema.FormatTime(now()), ApproverID: approverID, PlanHash: p.PlanHash}
		if p.Kind == "remediation" {
			c.RemediationApproval = a
		} else {
			c.FinalizationApproval = a
		}
		p.Approved = true
		return p, nil
	})
}

// AddPath adds a path to the remediation scope of the loop: the pending
// remediation plan (and any approval of it) is dropped, and the next
// wakeup rebuilds the plan, its hash and the screen with the path in it.
func AddPath(ctx context.Context, d Deps, key, p string) error {
	clean := path.Clean(p)
	if p == "" || clean != p || path.IsAbs(p) || clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || strings.ContainsAny(p, "\x00\\") {
		return fmt.Errorf("--add-path %q: must be a clean relative slash path inside the checkout", p)
	}
	_, err := withCheckpoint(ctx, d, key, func(c *checkpoint.Checkpoint) (*Pending, error) {
		if c.FinalizationManifest != nil {
			return nil, errors.New("the pending plan is a finalization plan: it has no paths")
		}
		if !slices.Contains(c.ExtraPaths, p) {
			c.ExtraPaths = append(c.ExtraPaths, p)
			slices.Sort(c.ExtraPaths)
		}
		c.ClearPlans()
		return nil, nil
	})
	return err
}

// withCheckpoint runs fn on the loop's checkpoint under the run lock and
// writes it back when fn succeeds.
func withCheckpoint(ctx context.Context, d Deps, key string, fn func(*checkpoint.Checkpoint) (*Pending, error)) (*Pending, error) {
	run, err := OpenRun(d.Root, key)
	if err != nil {
		return nil, err
	}
	if d.LockWait > 0 {
		run.LockTimeout = d.LockWait
	}
	unlock, err := run.Lock(ctx)
	if err != nil {
		if errors.Is(err, statestore.ErrBusy) {
			return nil, fmt.Errorf("a wakeup is acting on this loop; try again when it has finished: %w", err)
		}
		return nil, err
	}
	defer unlock()
	c, err := checkpoint.Read(run)
	if err != nil {
		return nil, err
	}
	p, err := fn(c)
	if err != nil {
		return nil, err
	}
	return p, checkpoint.Write(run, c)
}
