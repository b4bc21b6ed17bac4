package wakeup

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/state"
)

// A stored plan binds what was observed when it was built: the merge
// gates, Codex's threads and responses, the checkout's boundary and path
// records. The world may move while the plan waits for its approval or its
// execution (CI finishing, an approval arriving, a new Codex thread), and
// then core rejects the plan. Such a plan is *superseded* instead of
// halting the loop — when all of these hold:
//
//   - its execution has not started: no journal reservation for its phase
//     (checked before evaluation, see interrupted; a started plan is
//     finished by its journal, never replaced);
//   - core rejects it against the fresh state with invalid-plan, or core
//     accepts it but core's builder, run on the same fresh state, makes a
//     plan with a different hash (the remediation paths' records and the
//     validation commands' definitions, which the validator does not
//     re-observe);
//   - the same fresh state without any plan evaluates to plan-remediation
//     or plan-finalization, and core's builder makes that plan.
//
// Consistency findings (a moved head or base, a changed remote, a closed
// PR, a claim) come before plans in core's order and still halt or wait;
// so does a plan whose replacement core would not build. The old plan and
// its approval are dropped together: an approval names one plan hash and
// never carries over to the new plan.
//
// MaxSupersedes bounds the plans one wakeup replaces, so a world that
// changes under every rebuild halts (fail closed) instead of looping.
const MaxSupersedes = 3

// ReasonStalePlan is the reason of a supersede record in the history.
const ReasonStalePlan = "stale-plan"

// replacement is a stored plan's replacement: the fresh plan, the state
// without the old plan it was built from, and what changed, in words.
type replacement struct {
	oldHash string
	fresh   *builtPlan
	snap    *state.Snapshot
	why     string
}

// StaleError is what re-validation returns, before the first side effect,
// when the approved plan no longer matches fresh observations and can be
// superseded: the wakeup drops it and plans again.
type StaleError struct{ r *replacement }

func (e *StaleError) Error() string {
	return fmt.Sprintf("plan %s no longer matches fresh observations (%s); it is superseded", e.r.oldHash, e.r.why)
}

// stale decides whether the plan stored in c, evaluated by core to res on
// snap (the fresh state with that plan), is to be superseded. nil keeps
// the plan and core's verdict on it.
func (w *waker) stale(ctx context.Context, c *checkpoint.Checkpoint, snap *state.Snapshot, res evaluate.Result) *replacement {
	oldHash := storedHash(c)
	if oldHash == "" || w.superseded >= MaxSupersedes {
		return nil
	}
	switch res.Action {
	case evaluate.ActionHalt:
		if res.Reason != evaluate.ReasonInvalidPlan {
			return nil
		}
	case evaluate.ActionAwaitApproval, evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization:
	default:
		return nil
	}
	// What a wakeup with no stored plan would do on the same observation.
	bare := *c
	bare.ClearPlans()
	bare.Claim = nil
	plain, err := state.Assemble(&bare, snap.Obs, snap.State.Automations, nil)
	if err != nil {
		return nil
	}
	plain.Cost, plain.RequestNodeID = snap.Cost, snap.RequestNodeID
	pres, err := evaluateSnap(plain)
	if err != nil || (pres.Action != evaluate.ActionPlanRemediation && pres.Action != evaluate.ActionPlanFinalization) {
		return nil
	}
	fresh, err := w.build(ctx, &bare, plain, pres.Action, snap.State.ExecutionBoundary)
	if err != nil || fresh.hash == oldHash {
		return nil
	}
	return &replacement{oldHash: oldHash, fresh: fresh, snap: plain, why: describeChange(c, fresh)}
}

func storedHash(c *checkpoint.Checkpoint) string {
	switch {
	case c.RemediationPlanHash != nil:
		return *c.RemediationPlanHash
	case c.FinalizationPlanHash != nil:
		return *c.FinalizationPlanHash
	}
	return ""
}

// supersede drops the stored plan and its approval, records the supersede
// in the history, stores the replacement and does what core says next.
func (w *waker) supersede(ctx context.Context, o Outcome, r *replacement) Outcome {
	w.superseded++
	w.cp.ClearPlans()
	w.cp.Claim = nil
	if err := w.save(); err != nil {
		return o.fail(err)
	}
	rec := Record{Time: schema.FormatTime(w.d.Now()), Action: ActionSupersede, Reason: ReasonStalePlan, Message: r.why,
		PlanHash: r.oldHash, Done: "dropped the plan and its approval; planning again"}
	if err := appendHistory(w.run, rec); err != nil {
		return o.fail(err)
	}
	o.Superseded = r.oldHash
	o.Done = fmt.Sprintf("superseded plan %s (%s)", r.oldHash, r.why)
	return w.planBuilt(ctx, o, r.snap, r.fresh)
}

// describeChange says in words what differs between the plan stored in c
// and its replacement, e.g. "the checks gate changed from pending to pass".
func describeChange(c *checkpoint.Checkpoint, fresh *builtPlan) string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	switch {
	case c.FinalizationManifest != nil && fresh.fin != nil:
		o, n := c.FinalizationManifest, fresh.fin
		for _, g := range []struct{ name, was, is string }{
			{"approvals", o.Gates.Approvals, n.Gates.Approvals},
			{"branch protection", o.Gates.BranchProtection, n.Gates.BranchProtection},
			{"checks", o.Gates.Checks, n.Gates.Checks},
			{"mergeability", o.Gates.Mergeability, n.Gates.Mergeability},
		} {
			if g.was != g.is {
				add("the %s gate changed from %s to %s", g.name, g.was, g.is)
			}
		}
		if o.PRIsDraft != n.PRIsDraft {
			add("the PR's draft flag changed from %t to %t", o.PRIsDraft, n.PRIsDraft)
		}
		if !sameJSON(o.EligibleThreads, n.EligibleThreads) {
			add("the Codex threads to resolve changed (%d before, %d now)", len(o.EligibleThreads), len(n.EligibleThreads))
		}
		if o.NonCodexRootedThreads != n.NonCodexRootedThreads {
			add("the unresolved threads of other authors changed from %d to %d", o.NonCodexRootedThreads, n.NonCodexRootedThreads)
		}
		if !sameJSON(o.Responses, n.Responses) {
			add("Codex's responses changed (%d before, %d now)", len(o.Responses), len(n.Responses))
		}
	case c.RemediationManifest != nil && fresh.rem != nil:
		o, n := c.RemediationManifest, fresh.rem
		if !sameJSON(o.ActionableThreads, n.ActionableThreads) {
			add("the actionable Codex threads changed (%d before, %d now)", len(o.ActionableThreads), len(n.ActionableThreads))
		}
		if !sameJSON(o.Responses, n.Responses) {
			add("Codex's responses changed (%d before, %d now)", len(o.Responses), len(n.Responses))
		}
		if !slices.Equal(o.Paths, n.Paths) {
			add("the paths changed from [%s] to [%s]", strings.Join(o.Paths, ", "), strings.Join(n.Paths, ", "))
		} else if !sameJSON(o.PathRecords, n.PathRecords) {
			var changed []string
			for i := range o.PathRecords {
				if o.PathRecords[i] != n.PathRecords[i] {
					changed = append(changed, o.PathRecords[i].Path)
				}
			}
			add("the checkout's records of %s changed", strings.Join(changed, ", "))
		}
		if !sameJSON(o.Commands, n.Commands) {
			add("the validation commands' definitions changed")
		}
		if !sameJSON(o.Execution, n.Execution) {
			add("the checkout's execution boundary changed (%s)", strings.Join(boundaryChanges(o.Execution, n.Execution), ", "))
		}
	case fresh.rem != nil:
		add("Codex's verdict now calls for a fix round: the finalization plan gives way to a remediation plan")
	default:
		add("Codex's verdict no longer calls for a fix round: the remediation plan gives way to a finalization plan")
	}
	if len(out) == 0 {
		return "the plan no longer matches fresh observations"
	}
	return strings.Join(out, "; ")
}

// boundaryChanges names the parts of an execution boundary that differ.
func boundaryChanges(o, n schema.Boundary) []string {
	var out []string
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"filesystem read scope", o.FilesystemReadScopeSHA256, n.FilesystemReadScopeSHA256},
		{"filesystem write scope", o.FilesystemWriteScopeSHA256, n.FilesystemWriteScopeSHA256},
		{"git config", o.Git.ConfigSnapshotSHA256, n.Git.ConfigSnapshotSHA256},
		{"git attributes", o.Git.AttributesSnapshotSHA256, n.Git.AttributesSnapshotSHA256},
		{"git metadata", o.Git.GitMetadataSnapshotSHA256, n.Git.GitMetadataSnapshotSHA256},
		{"git invocation", o.Git.InvocationSHA256, n.Git.InvocationSHA256},
		{"push URL", o.Git.TransportURLSHA256, n.Git.TransportURLSHA256},
		{"clean filters", strings.Join(o.Git.ActiveCleanFilters, ","), strings.Join(n.Git.ActiveCleanFilters, ",")},
	} {
		if f.a != f.b {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		out = append(out, "git protections")
	}
	return out
}

func sameJSON(a, b any) bool {
	x, err1 := canon.Marshal(a)
	y, err2 := canon.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
