package wakeup_test

import (
	"context"
	"slices"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// Findings → plan-remediation: the plan is built by core's builder from the
// wakeup's observation, stored with its hash, and (approval-gated) the loop
// awaits approval with exit 8; the next wakeup finds the same plan.
func TestPlanRemediationStoresThePlanAndAwaitsApproval(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	o := w.wake()
	if o.Action != evaluate.ActionAwaitApproval || o.Reason != evaluate.ReasonRemediationPlan || o.Exit != wakeup.ExitPending || o.PlanHash == "" {
		t.Fatalf("outcome %+v", o)
	}
	if want := []string{evaluate.ActionPlanRemediation, evaluate.ActionAwaitApproval}; !slices.Equal(o.Actions, want) {
		t.Fatalf("actions %v, want %v", o.Actions, want)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	m := c.RemediationManifest
	if m == nil || *c.RemediationPlanHash != o.PlanHash || c.RemediationApproval != nil {
		t.Fatalf("checkpoint plans: %+v", c)
	}
	if h, _ := canon.HashValue(m); h != o.PlanHash {
		t.Fatalf("stored plan hashes to %s, outcome says %s", h, o.PlanHash)
	}
	want := []string{}
	for _, f := range ghsim.DefaultFindings() {
		want = append(want, f.Path)
	}
	slices.Sort(want)
	if !slices.Equal(m.Paths, want) || len(m.ActionableThreads) != len(want) || m.ReviewRequestBodyTemplate != policy.FixReviewTemplate(w.runID, 1) {
		t.Fatalf("plan paths %v threads %d template %q", m.Paths, len(m.ActionableThreads), m.ReviewRequestBodyTemplate)
	}
	if !slices.Equal(m.Operations, evaluate.ExpectedRemediationOperations(nil)) {
		t.Fatalf("operations %v", m.Operations)
	}
	again := w.wake()
	if again.Action != evaluate.ActionAwaitApproval || again.PlanHash != o.PlanHash || !slices.Equal(again.Actions, []string{evaluate.ActionAwaitApproval}) {
		t.Fatalf("second wakeup: %+v", again)
	}
	if a := w.automation(); a.Status != "ACTIVE" {
		t.Fatalf("awaiting approval paused the automation: %+v", a)
	}
}

// A clean verdict → plan-finalization → await-approval.
func TestPlanFinalizationAwaitsApproval(t *testing.T) {
	for _, kind := range []ghsim.ScenarioKind{ghsim.ZeroFindings, ghsim.CleanByReaction} {
		t.Run(kind.String(), func(t *testing.T) {
			w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: kind})
			w.codexAnswers()
			o := w.wake()
			if o.Action != evaluate.ActionAwaitApproval || o.Reason != evaluate.ReasonFinalizationPlan || o.Exit != wakeup.ExitPending ||
				!slices.Equal(o.Actions, []string{evaluate.ActionPlanFinalization, evaluate.ActionAwaitApproval}) {
				t.Fatalf("outcome %+v", o)
			}
			c, err := checkpoint.Read(w.run())
			if err != nil {
				t.Fatal(err)
			}
			if c.FinalizationManifest == nil || *c.FinalizationPlanHash != o.PlanHash || c.RemediationManifest != nil {
				t.Fatalf("checkpoint plans: %+v", c)
			}
			if ops := c.FinalizationManifest.Operations; ops[len(ops)-1] != policy.OpDeleteAutomation {
				t.Fatalf("operations %v", ops)
			}
		})
	}
}

// Autonomous: the stored plan goes straight to its executor in the same
// wakeup, under a claim naming the plan and the request, which is released
// afterwards; the executor's re-validation yields the same hash.
func TestAutonomousPlanExecutesUnderTheClaim(t *testing.T) {
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	d := w.deps()
	var got wakeup.Job
	var claimDuring *checkpoint.Checkpoint
	var revalidated string
	d.Executors = map[string]wakeup.Executor{evaluate.ActionExecuteRemediation: func(ctx context.Context, job wakeup.Job) (string, error) {
		got = job
		c, err := checkpoint.Read(job.Run)
		if err != nil {
			return "", err
		}
		claimDuring = c
		revalidated, err = job.Revalidate(ctx)
		return "fixed", err
	}}
	o := wakeup.One(t.Context(), d, w.key)
	if o.Action != evaluate.ActionExecuteRemediation || o.Reason != evaluate.ReasonAutonomous || o.Exit != 0 || o.Error != "" ||
		!slices.Equal(o.Actions, []string{evaluate.ActionPlanRemediation, evaluate.ActionExecuteRemediation}) {
		t.Fatalf("outcome %+v", o)
	}
	if got.PlanHash != o.PlanHash || revalidated != o.PlanHash || len(got.Manifest) == 0 {
		t.Fatalf("executor got plan %s, re-validated %s, outcome %s", got.PlanHash, revalidated, o.PlanHash)
	}
	cl := claimDuring.Claim
	if cl == nil || cl.Holder != "test:1" || cl.PlanHash != o.PlanHash || cl.RequestKey != claimDuring.RequestKey() {
		t.Fatalf("claim during execution: %+v", cl)
	}
	after, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if after.Claim != nil {
		t.Fatalf("the claim was not released: %+v", after.Claim)
	}
}

// Without an executor for the action nothing is done and the claim is
// never taken.
func TestExecuteWithoutExecutorDoesNothing(t *testing.T) {
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.ZeroFindings})
	w.codexAnswers()
	o := w.wake()
	if o.Action != evaluate.ActionExecuteFinalization || o.Exit != wakeup.ExitHalt || o.Error == "" {
		t.Fatalf("outcome %+v", o)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if c.Claim != nil {
		t.Fatalf("a claim was taken: %+v", c.Claim)
	}
}
