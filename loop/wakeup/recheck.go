package wakeup

import (
	"context"
	"errors"
	"fmt"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/state"
	"github.com/prloop/gh-prloop/statestore"
)

// ErrSuperseded: Recheck found the stored plan stale; a wakeup replaces it.
var ErrSuperseded = errors.New("it is superseded")

// Recheck re-validates the loop's stored plan against fresh observations
// (GitHub, and the checkout for a remediation plan) under the run lock and
// returns its hash, which equals the stored one exactly when core still
// accepts the plan for this state: the approval console records nothing
// otherwise. It does not record a wakeup.
func Recheck(ctx context.Context, d Deps, key string) (string, error) {
	run, err := OpenRun(d.Root, key)
	if err != nil {
		return "", err
	}
	if d.LockWait > 0 {
		run.LockTimeout = d.LockWait
	}
	unlock, err := run.Lock(ctx)
	if err != nil {
		if errors.Is(err, statestore.ErrBusy) {
			return "", fmt.Errorf("a wakeup is acting on this loop; try again when it has finished: %w", err)
		}
		return "", err
	}
	defer unlock()
	c, err := checkpoint.Read(run)
	if err != nil {
		return "", err
	}
	p, err := pendingOf(c)
	if err != nil {
		return "", err
	}
	w := &waker{d: d, run: run, key: key, cp: c}
	var b *schema.Boundary
	if c.RemediationManifest != nil {
		if b, err = w.checkout().Boundary(ctx, run); err != nil {
			return "", err
		}
	}
	snap, err := state.Build(ctx, state.Deps{GitHub: d.GitHub, Registry: d.Registry}, c, b)
	if err != nil {
		return "", err
	}
	res, err := evaluateSnap(snap)
	if err != nil {
		return "", err
	}
	// A plan the next wakeup would supersede is not approved: its
	// replacement gets a hash of its own (supersede.go).
	if r := w.stale(ctx, c, snap, res); r != nil {
		return "", fmt.Errorf("the %s plan %s no longer matches fresh observations (%s): %w; the next wakeup replaces it with a new plan to approve (gh-prloop wakeup %s)",
			p.Kind, p.PlanHash, r.why, ErrSuperseded, key)
	}
	switch res.Action {
	case evaluate.ActionAwaitApproval, evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization:
		return res.PlanHash, nil
	}
	msg := res.Message
	if len(res.Errors) > 0 {
		msg += ": " + res.Errors.Error()
	}
	return "", fmt.Errorf("the %s plan %s no longer holds: core says %s/%s: %s", p.Kind, p.PlanHash, res.Action, res.Reason, msg)
}
