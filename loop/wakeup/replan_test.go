package wakeup_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// replanCheckDelay is how long CI runs after each push in these worlds:
// longer than the bot takes (codexAnswers advances 5 minutes), so the
// clean verdict is read while the check is still pending.
const replanCheckDelay = 30 * time.Minute

// newReplanWorld is a world whose CI check passes replanCheckDelay after
// each push, with Codex's clean verdict (👍 only) on the first request.
func newReplanWorld(t *testing.T, mode string, scenarios ...ghsim.Scenario) *world {
	t.Helper()
	if len(scenarios) == 0 {
		scenarios = []ghsim.Scenario{{Kind: ghsim.CleanByReaction}}
	}
	return newWorldWith(t, mode, func(b *testbed.Bed) {
		b.Sim.SetGateScript(ghsim.GateScript{CheckName: "ci / test", CheckDelay: replanCheckDelay, Conclusion: "success"})
	}, scenarios...)
}

// replanHistory is the loop's supersede records.
func (w *world) replanHistory() []wakeup.Record {
	w.t.Helper()
	hist, err := wakeup.History(w.run())
	if err != nil {
		w.t.Fatal(err)
	}
	var out []wakeup.Record
	for _, r := range hist {
		if r.Action == wakeup.ActionSupersede {
			out = append(out, r)
		}
	}
	return out
}

// The gates race, approval-gated: the finalization plan is stored and
// approved while CI is pending; CI then passes. The next wakeup supersedes
// the stored plan (history names the old hash and the gate that changed),
// stores a new one and awaits ITS approval (exit 8): the old approval never
// authorizes it, and approving the old hash is refused.
func TestSupersedeFinalizationWhenAGateChangesApprovalGated(t *testing.T) {
	w := newReplanWorld(t, policy.ModeApprovalGated)
	w.codexAnswers()
	first := w.wake()
	if first.Action != evaluate.ActionAwaitApproval || first.Reason != evaluate.ReasonFinalizationPlan {
		t.Fatalf("first plan: %+v", first)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if g := c.FinalizationManifest.Gates.Checks; g != "pending" {
		t.Fatalf("the first plan binds checks %q, want pending (the world is not racing)", g)
	}
	d := w.remediationDeps(nil)
	if _, err := wakeup.Approve(t.Context(), d, w.key, first.PlanHash, w.bed.Viewer.ID); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(replanCheckDelay) // CI finishes
	o := wakeup.One(t.Context(), d, w.key)
	if o.Action != evaluate.ActionAwaitApproval || o.Exit != wakeup.ExitPending || o.PlanHash == "" || o.PlanHash == first.PlanHash {
		t.Fatalf("after CI passed: %+v (first plan %s)", o, first.PlanHash)
	}
	if o.Superseded != first.PlanHash || !strings.Contains(o.Done, "superseded") {
		t.Fatalf("the outcome does not name the superseded plan: %+v", o)
	}
	if a := w.automation(); a.Status != "ACTIVE" {
		t.Fatalf("the automation was paused: %+v", a)
	}
	c, err = checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if c.FinalizationApproval != nil || *c.FinalizationPlanHash != o.PlanHash || c.FinalizationManifest.Gates.Checks != "pass" {
		t.Fatalf("checkpoint after the supersede: approval %+v hash %s gates %+v", c.FinalizationApproval, *c.FinalizationPlanHash, c.FinalizationManifest.Gates)
	}
	sup := w.replanHistory()
	if len(sup) != 1 || sup[0].PlanHash != first.PlanHash || !strings.Contains(sup[0].Message, "the checks gate changed from pending to pass") {
		t.Fatalf("supersede history: %+v", sup)
	}
	// Approving the superseded hash is refused; the new one is approved.
	if _, err := wakeup.Approve(t.Context(), d, w.key, first.PlanHash, w.bed.Viewer.ID); !errors.Is(err, wakeup.ErrHashMismatch) {
		t.Fatalf("approving the superseded hash: %v", err)
	}
	if _, err := wakeup.Approve(t.Context(), d, w.key, o.PlanHash, w.bed.Viewer.ID); err != nil {
		t.Fatal(err)
	}
	if x := wakeup.One(t.Context(), d, w.key); x.Action != evaluate.ActionExecuteFinalization || x.Reason != evaluate.ReasonApproved || x.Error != "" {
		t.Fatalf("execute the new plan: %+v", x)
	}
	if fin := wakeup.One(t.Context(), d, w.key); fin.Action != evaluate.ActionFinishFinalization || fin.Error != "" {
		t.Fatalf("finish: %+v", fin)
	}
	w.checkFinalized()
}

// Autonomous: the gate changes between the plan and the executor's
// re-validation in the same wakeup (the executor is handed the plan, CI
// passes, then it re-validates). The plan is superseded before any side
// effect and the new plan executed in the same wakeup; the loop reaches
// done without a halt.
func TestSupersedeFinalizationAtRevalidationAutonomous(t *testing.T) {
	w := newReplanWorld(t, policy.ModeAutonomous)
	w.codexAnswers()
	d := w.remediationDeps(nil)
	real := d.Executors[evaluate.ActionExecuteFinalization]
	calls := 0
	var hashes []string
	d.Executors[evaluate.ActionExecuteFinalization] = func(ctx context.Context, job wakeup.Job) (string, error) {
		calls++
		hashes = append(hashes, job.PlanHash)
		if calls == 1 {
			w.clock.Advance(replanCheckDelay) // CI finishes under the plan
		}
		return real(ctx, job)
	}
	o := wakeup.One(t.Context(), d, w.key)
	if o.Action != evaluate.ActionExecuteFinalization || o.Error != "" || o.Exit != 0 {
		t.Fatalf("outcome %+v", o)
	}
	if calls != 2 || hashes[0] == hashes[1] || o.PlanHash != hashes[1] || o.Superseded != hashes[0] {
		t.Fatalf("executor calls %d with %v; outcome %+v", calls, hashes, o)
	}
	sup := w.replanHistory()
	if len(sup) != 1 || sup[0].PlanHash != hashes[0] || !strings.Contains(sup[0].Message, "the checks gate changed from pending to pass") {
		t.Fatalf("supersede history: %+v", sup)
	}
	if fin := wakeup.One(t.Context(), d, w.key); fin.Action != evaluate.ActionFinishFinalization || fin.Error != "" {
		t.Fatalf("finish: %+v", fin)
	}
	w.checkFinalized()
}
