package wakeup_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/finalize"
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
	// The approval console's recheck refuses the stale plan and changes nothing.
	if h, err := wakeup.Recheck(t.Context(), d, w.key); !errors.Is(err, wakeup.ErrSuperseded) || h != "" || !strings.Contains(err.Error(), "the checks gate changed from pending to pass") {
		t.Fatalf("recheck of the stale plan: %q %v", h, err)
	}
	if c, err := checkpoint.Read(w.run()); err != nil || *c.FinalizationPlanHash != first.PlanHash || c.FinalizationApproval == nil {
		t.Fatalf("recheck changed the checkpoint: %v %+v", err, c)
	}
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
	// The superseded attempt did nothing, so it is not listed as done.
	if n := slices.Index(o.Actions, evaluate.ActionExecuteFinalization); n < 0 || slices.Contains(o.Actions[n+1:], evaluate.ActionExecuteFinalization) {
		t.Fatalf("actions %v list the superseded execution", o.Actions)
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

// A remediation plan waiting for its approval is superseded when the
// checkout changes under it: a changed git config (core rejects the plan's
// execution boundary) or a path that disappeared (core accepts the plan,
// but core's builder records the path differently now). The approval of
// the old plan does not carry over.
func TestSupersedeRemediationWhenTheCheckoutChanges(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		change     func(w *world)
	}{
		{"git-config", "the checkout's execution boundary changed (git config)", func(w *world) {
			cmd := exec.Command("git", "-C", w.bed.Checkout, "config", "--local", "user.name", "Someone Else")
			if out, err := cmd.CombinedOutput(); err != nil {
				w.t.Fatalf("git config: %v\n%s", err, out)
			}
		}},
		{"path-removed", "the checkout's records of " + ghsim.DefaultFindings()[0].Path + " changed", func(w *world) {
			if err := os.Remove(filepath.Join(w.bed.Checkout, ghsim.DefaultFindings()[0].Path)); err != nil {
				w.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
			w.codexAnswers()
			first := w.wake()
			if first.Action != evaluate.ActionAwaitApproval || first.Reason != evaluate.ReasonRemediationPlan {
				t.Fatalf("first plan: %+v", first)
			}
			d := w.deps()
			if _, err := wakeup.Approve(t.Context(), d, w.key, first.PlanHash, w.bed.Viewer.ID); err != nil {
				t.Fatal(err)
			}
			tc.change(w)
			o := w.wake()
			if o.Action != evaluate.ActionAwaitApproval || o.Exit != wakeup.ExitPending || o.PlanHash == first.PlanHash || o.Superseded != first.PlanHash {
				t.Fatalf("after the change: %+v (first plan %s)", o, first.PlanHash)
			}
			c, err := checkpoint.Read(w.run())
			if err != nil {
				t.Fatal(err)
			}
			if c.RemediationApproval != nil || c.RemediationManifest == nil || *c.RemediationPlanHash != o.PlanHash {
				t.Fatalf("checkpoint after the supersede: %+v", c)
			}
			sup := w.replanHistory()
			if len(sup) != 1 || sup[0].PlanHash != first.PlanHash || !strings.Contains(sup[0].Message, tc.want) {
				t.Fatalf("supersede history %+v, want a message with %q", sup, tc.want)
			}
			// Nothing changes any more: the new plan stays.
			if again := w.wake(); again.Action != evaluate.ActionAwaitApproval || again.PlanHash != o.PlanHash || again.Superseded != "" {
				t.Fatalf("the next wakeup: %+v", again)
			}
		})
	}
}

// A plan whose execution started is never superseded: the finalization
// is interrupted after resolving a thread, CI then passes (the stored plan
// binds checks pending), and the next wakeup resumes the same plan from
// its journal; only the post-mutation plan, built afterwards, reads the
// new gates.
func TestStartedPlanIsResumedNotSuperseded(t *testing.T) {
	needSandbox(t)
	w := newReplanWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings}, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	w.codexAnswers()
	if x := wakeup.One(t.Context(), w.remediationDeps(nil), w.key); x.Action != evaluate.ActionExecuteRemediation || x.Error != "" {
		t.Fatalf("remediation: %+v", x)
	}
	w.codexAnswers() // the 👍 on the fix; CI on the fix still runs
	point := "after:" + policy.OpResolveCodexThreads + "/1"
	x := wakeup.One(t.Context(), w.remediationDeps(func(p string) bool { return p == point }), w.key)
	if x.Action != evaluate.ActionExecuteFinalization || !strings.Contains(x.Error, finalize.ErrCrashed.Error()) {
		t.Fatalf("the crash at %s was not reached: %+v", point, x)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if c.FinalizationManifest == nil || c.FinalizationManifest.Gates.Checks != "pending" {
		t.Fatalf("the interrupted plan: %+v", c.FinalizationManifest)
	}
	started := *c.FinalizationPlanHash
	w.clock.Advance(replanCheckDelay) // CI passes under the started plan
	o := wakeup.One(t.Context(), w.remediationDeps(nil), w.key)
	if o.Action != evaluate.ActionExecuteFinalization || o.Reason != wakeup.ReasonResume || o.PlanHash != started || o.Superseded != "" || o.Error != "" {
		t.Fatalf("after CI passed: %+v (started plan %s)", o, started)
	}
	if sup := w.replanHistory(); len(sup) != 0 {
		t.Fatalf("a started plan was superseded: %+v", sup)
	}
	fin := wakeup.One(t.Context(), w.remediationDeps(nil), w.key)
	if fin.Action != evaluate.ActionFinishFinalization || fin.Error != "" {
		t.Fatalf("finish: %+v", fin)
	}
	w.checkFinalized()
	c, err = checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if c.MergeGateReport.Gates.Checks != "pass" {
		t.Fatalf("the final merge-gate report: %+v", c.MergeGateReport)
	}
}

// A moved base still halts with the plan stored (PROTOCOL §5 step 3, the
// seed: base-tip drift invalidates the plan and forbids any mutation):
// consistency findings are never superseded.
func TestBaseDriftUnderAStoredPlanStillHalts(t *testing.T) {
	w := newReplanWorld(t, policy.ModeApprovalGated)
	w.codexAnswers()
	first := w.wake()
	if first.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("first plan: %+v", first)
	}
	repo := w.bed.Repo
	base := w.pr.Data().Base
	tip, _ := repo.Branch(base)
	repo.AddCommit(ghsim.Commit{SHA: strings.Repeat("b", 40), Parents: []string{tip}, Message: "moved base"})
	repo.SetBranch(base, strings.Repeat("b", 40))
	w.clock.Advance(replanCheckDelay)
	o := w.wake()
	if o.Action != evaluate.ActionHalt || o.Reason != evaluate.ReasonBaseDrift || o.Superseded != "" {
		t.Fatalf("after the base moved: %+v", o)
	}
	if sup := w.replanHistory(); len(sup) != 0 {
		t.Fatalf("a drifted plan was superseded: %+v", sup)
	}
}

// What execute-finalization did, in words: a PR that was already ready is
// said to be so (not "marked ready false").
func TestFinalizationDoneSaysWhatHappened(t *testing.T) {
	for _, tc := range []struct {
		res  finalize.Result
		want string
	}{
		{finalize.Result{}, "finalization: the PR was already ready, resolved 0 threads"},
		{finalize.Result{MarkedReady: true, Resolved: 1}, "finalization: marked the PR ready for review, resolved 1 thread"},
		{finalize.Result{Resolved: 2}, "finalization: the PR was already ready, resolved 2 threads"},
	} {
		if got := wakeup.FinalizationDone(&tc.res); got != tc.want {
			t.Errorf("FinalizationDone(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
}

// A clean first review on a ready PR: the first finalization plan has no
// GitHub operation; executing it goes straight on to the post-mutation
// plan, and the loop reaches done (it used to fail on every wakeup).
func TestCleanFirstReviewOnAReadyPRFinalizes(t *testing.T) {
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	w.codexAnswers()
	d := w.remediationDeps(nil)
	x := wakeup.One(t.Context(), d, w.key)
	if x.Action != evaluate.ActionExecuteFinalization || x.Error != "" || !strings.Contains(x.Done, "the PR was already ready, resolved 0 threads") {
		t.Fatalf("execute-finalization: %+v", x)
	}
	if fin := wakeup.One(t.Context(), d, w.key); fin.Action != evaluate.ActionFinishFinalization || fin.Error != "" {
		t.Fatalf("finish: %+v", fin)
	}
	w.checkFinalized()
}
