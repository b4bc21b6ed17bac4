package wakeup

import (
	"context"
	"fmt"
	"sort"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/state"
)

func (w *waker) checkout() Checkout {
	if w.d.Checkout != nil {
		return w.d.Checkout
	}
	return LocalCheckout{Git: w.d.Git}
}

// RemediationPaths are the files the actionable threads point at plus the
// paths the run was told to allow, sorted by bytes and without duplicates.
func RemediationPaths(obs *observe.PR, actionable []schema.Thread, extra []string) []string {
	want := map[string]bool{}
	for _, t := range actionable {
		want[t.ID] = true
	}
	set := map[string]bool{}
	for _, t := range obs.Threads {
		if want[t.ID] && t.Path != "" {
			set[t.Path] = true
		}
	}
	for _, p := range extra {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// plan builds the round's plan with core's builder from this wakeup's
// observation, has core validate it, stores it with its hash in the
// checkpoint, and evaluates again: approval-gated now awaits approval,
// autonomous goes on to execute.
func (w *waker) plan(ctx context.Context, o Outcome, snap *state.Snapshot, action string) Outcome {
	p, err := w.build(ctx, w.cp, snap, action, nil)
	if err != nil {
		return o.fail(err)
	}
	return w.planBuilt(ctx, o, snap, p)
}

// planBuilt stores the built plan p (replacing any plan and approval in
// the checkpoint) and does what core says next.
func (w *waker) planBuilt(ctx context.Context, o Outcome, snap *state.Snapshot, p *builtPlan) Outcome {
	if err := w.store(p); err != nil {
		return o.fail(err)
	}
	done := "stored the " + planKind(p.action) + " plan " + p.hash
	// Evaluate again with the plan in the state: core says what follows.
	next, res, err := w.reassess(ctx, snap)
	if err != nil {
		return o.fail(err)
	}
	switch res.Action {
	case evaluate.ActionAwaitApproval, evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization, evaluate.ActionHalt:
	default:
		return o.fail(fmt.Errorf("after storing plan %s the evaluator said %s/%s", p.hash, res.Action, res.Reason))
	}
	prefix := o.Done
	o = w.act(ctx, o, next, res)
	if o.Done == "" {
		o.Done = done
	} else {
		o.Done = done + "; " + o.Done
	}
	if prefix != "" {
		o.Done = prefix + "; " + o.Done
	}
	return o
}

func planKind(action string) string {
	if action == evaluate.ActionPlanRemediation {
		return "remediation"
	}
	return "finalization"
}

// reassess rebuilds the state from the same observation and the current
// checkpoint (observing the checkout again when a remediation plan is
// stored) and evaluates it.
func (w *waker) reassess(ctx context.Context, snap *state.Snapshot) (*state.Snapshot, evaluate.Result, error) {
	var b *schema.Boundary
	var err error
	if w.cp.RemediationManifest != nil {
		if b, err = w.checkout().Boundary(ctx, w.run); err != nil {
			return nil, evaluate.Result{}, err
		}
	}
	next, err := state.Assemble(w.cp, snap.Obs, snap.State.Automations, b)
	if err != nil {
		return nil, evaluate.Result{}, err
	}
	next.Cost, next.RequestNodeID = snap.Cost, snap.RequestNodeID
	res, err := evaluateSnap(next)
	return next, res, err
}

// builtPlan is a plan core's builder made and core's validator accepted,
// not yet stored.
type builtPlan struct {
	action string // plan-remediation | plan-finalization
	rem    *schema.RemediationManifest
	fin    *schema.FinalizationManifest
	hash   string
}

// build builds and validates the plan the action names from the state of
// checkpoint c and this wakeup's observation snap. b is the fresh
// execution boundary when the caller already observed it (nil: observed
// here when a remediation plan needs it).
func (w *waker) build(ctx context.Context, c *checkpoint.Checkpoint, snap *state.Snapshot, action string, b *schema.Boundary) (*builtPlan, error) {
	if action == evaluate.ActionPlanFinalization {
		s := snap.State
		m := evaluate.BuildFinalization(s)
		if errs := evaluate.Finalization(m, nil, s, "/finalization_manifest"); !errs.Empty() {
			return nil, fmt.Errorf("core refused the finalization plan built from this wakeup: %w", errs)
		}
		h, err := canon.HashValue(m)
		if err != nil {
			return nil, err
		}
		return &builtPlan{action: action, fin: &m, hash: h}, nil
	}
	if action != evaluate.ActionPlanRemediation {
		return nil, fmt.Errorf("build: %q is not a plan action", action)
	}
	if b == nil {
		var err error
		if b, err = w.checkout().Boundary(ctx, w.run); err != nil {
			return nil, err
		}
	}
	withB, err := state.Assemble(c, snap.Obs, snap.State.Automations, b)
	if err != nil {
		return nil, err
	}
	s := withB.State
	paths := RemediationPaths(snap.Obs, s.ActionableCodexThreads, c.ExtraPaths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("the findings point at no file of the checkout; add one with `gh-prloop approve %s --add-path PATH`", w.key)
	}
	recs, cmds, err := w.checkout().Records(ctx, w.run, paths, c.Validate)
	if err != nil {
		return nil, err
	}
	m := evaluate.BuildRemediation(s, evaluate.RemediationInput{Paths: paths, PathRecords: recs, Commands: cmds})
	if errs := evaluate.Remediation(m, nil, s, "/remediation_manifest"); !errs.Empty() {
		return nil, fmt.Errorf("core refused the remediation plan built from this wakeup: %w", errs)
	}
	h, err := canon.HashValue(m)
	if err != nil {
		return nil, err
	}
	return &builtPlan{action: action, rem: &m, hash: h}, nil
}

// store makes p the checkpoint's only plan, without an approval.
func (w *waker) store(p *builtPlan) error {
	w.cp.ClearPlans()
	h := p.hash
	if p.rem != nil {
		w.cp.RemediationManifest, w.cp.RemediationPlanHash = p.rem, &h
	} else {
		w.cp.FinalizationManifest, w.cp.FinalizationPlanHash = p.fin, &h
	}
	return w.save()
}
