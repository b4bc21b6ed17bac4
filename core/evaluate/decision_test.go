package evaluate_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
)

// TestDecisionOrder: each step decides before the next one is consulted.
func TestDecisionOrder(t *testing.T) {
	t.Run("schema-before-report", func(t *testing.T) {
		st := fixture.State(fixture.StateOptions{Scenario: fixture.StateFindings, Mode: "report-only"})
		ruletest.Obj(st, "responses", 1)["bot_type"] = "User"
		wantAction(t, eval(t, st), "halt", "schema")
	})
	t.Run("report-before-consistency", func(t *testing.T) {
		st := fixture.State(fixture.StateOptions{Scenario: fixture.StateFindings, Mode: "report-only"})
		ruletest.Obj(st, "pr")["state"] = "merged"
		ruletest.Obj(st, "pr")["head_sha"] = fixture.StateOldHeadSHA
		r := eval(t, st)
		wantAction(t, r, "report", "findings")
		if len(r.Inconsistencies) != 0 {
			t.Fatalf("report-only lists no inconsistencies, got %v", r.Inconsistencies)
		}
	})
	t.Run("finalized-before-consistency", func(t *testing.T) {
		st := state(fixture.StateFinalized)
		ruletest.Obj(st, "pr")["state"] = "merged"
		wantAction(t, eval(t, st), "done", "finalized")
	})
	t.Run("consistency-before-plans", func(t *testing.T) {
		st := state(fixture.StateRemediationApproved)
		ruletest.Obj(st, "pr")["state"] = "closed"
		wantAction(t, eval(t, st), "halt", "pr-closed")
	})
	t.Run("plans-before-verdict", func(t *testing.T) {
		st := state(fixture.StateRemediationPlanned)
		st["observed_at"] = "2026-03-01T11:00:00Z" // past the deadline, yet a plan waits
		wantAction(t, eval(t, st), "await-approval", "remediation-plan")
	})
	t.Run("findings-before-zero-findings", func(t *testing.T) {
		st := state(fixture.StateFindings)
		st["responses"] = append([]any{zeroFindings()}, list(st, "responses")...)
		wantAction(t, eval(t, st), "plan-remediation", "findings")
	})
}

// TestPlanApproval: approval-gated executes only a plan whose exact hash was approved.
func TestPlanApproval(t *testing.T) {
	for _, tc := range []struct {
		sc      fixture.StateScenario
		key     string
		execute string
		await   string
	}{
		{fixture.StateRemediationApproved, "remediation_approval", "execute-remediation", "remediation-plan"},
		{fixture.StateFinalizationApproved, "finalization_approval", "execute-finalization", "finalization-plan"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			st := state(tc.sc)
			wantAction(t, eval(t, st), tc.execute, "approved")
			ruletest.Obj(st, tc.key)["plan_hash"] = digest("another plan")
			r := eval(t, st)
			wantAction(t, r, "await-approval", tc.await)
			if !strings.Contains(r.Message, r.PlanHash) || r.PlanHash == "" {
				t.Fatalf("the message must name the plan hash to type: %q / %q", r.Message, r.PlanHash)
			}
			st["mode"] = "autonomous"
			wantAction(t, eval(t, st), tc.execute, "autonomous")
		})
	}
}

// TestPostMutation: only a post-mutation plan (its request already
// completed) with nothing but delete-owned-automation finishes.
func TestPostMutation(t *testing.T) {
	t.Run("first-plan-with-delete-only-executes", func(t *testing.T) {
		st := state(fixture.StatePostMutation)
		keys := list(st, "completed_request_keys")
		st["completed_request_keys"] = keys[:len(keys)-1]
		st["finalization_manifest"] = fixture.FinalizationManifest(st)
		st["finalization_approval"] = nil
		fixture.RecomputeState(st)
		wantAction(t, eval(t, st), "await-approval", "finalization-plan")
	})
	t.Run("draft-left", func(t *testing.T) {
		st := state(fixture.StatePostMutation)
		ruletest.Obj(st, "pr")["is_draft"] = true
		st["finalization_manifest"] = fixture.FinalizationManifest(st)
		fixture.RecomputeState(st)
		wantAction(t, eval(t, st), "halt", "finalization-incomplete")
	})
	t.Run("eligible-left", func(t *testing.T) {
		st := state(fixture.StatePostMutation)
		st["eligible_codex_threads"] = stateOf(fixture.StateZeroFindings)["eligible_codex_threads"]
		st["finalization_manifest"] = fixture.FinalizationManifest(st)
		fixture.RecomputeState(st)
		wantAction(t, eval(t, st), "halt", "finalization-incomplete")
	})
	t.Run("replan-after-mutation", func(t *testing.T) {
		st := state(fixture.StatePostMutation)
		st["finalization_manifest"], st["finalization_plan_hash"], st["finalization_approval"] = nil, nil, nil
		r := eval(t, st)
		wantAction(t, r, "plan-finalization", "zero-findings")
		if !strings.Contains(r.Message, "post-mutation") {
			t.Fatalf("message %q", r.Message)
		}
	})
}

// TestVerdict covers steps 5 to 8.
func TestVerdict(t *testing.T) {
	t.Run("before-deadline-waits", func(t *testing.T) {
		st := state(fixture.StateAwaiting)
		st["observed_at"] = "2026-03-01T10:29:59Z"
		wantAction(t, eval(t, st), "wait", "awaiting-response")
	})
	t.Run("at-deadline-times-out", func(t *testing.T) {
		wantAction(t, eval(t, state(fixture.StateTimeout)), "halt", "request-timeout")
	})
	t.Run("deadline-compared-as-instant", func(t *testing.T) {
		st := state(fixture.StateAwaiting)
		st["observed_at"] = "2026-03-01T11:29:59+01:00"
		wantAction(t, eval(t, st), "wait", "awaiting-response")
		st["observed_at"] = "2026-03-01T11:30:00+01:00"
		wantAction(t, eval(t, st), "halt", "request-timeout")
	})
	t.Run("fix-rounds-below-limit-plans", func(t *testing.T) {
		st := state(fixture.StateFixLimit)
		st["fix_rounds"] = num(policy.MaxFixRounds - 1)
		wantAction(t, eval(t, st), "plan-remediation", "findings")
	})
	t.Run("fix-rounds-above-limit-halts", func(t *testing.T) {
		st := state(fixture.StateFixLimit)
		st["fix_rounds"] = num(policy.MaxFixRounds + 1)
		wantAction(t, eval(t, st), "halt", "fix-round-limit")
	})
	t.Run("actionable-threads-alone-are-findings", func(t *testing.T) {
		st := state(fixture.StateFindings)
		st["responses"] = []any{zeroFindings()}
		wantAction(t, eval(t, st), "plan-remediation", "findings")
	})
	t.Run("findings-review-alone-is-findings", func(t *testing.T) {
		st := state(fixture.StateFindings)
		st["actionable_codex_threads"] = []any{}
		wantAction(t, eval(t, st), "plan-remediation", "findings")
	})
	t.Run("findings-review-comment-alone-is-findings", func(t *testing.T) {
		st := state(fixture.StateFindings)
		st["actionable_codex_threads"] = []any{}
		st["responses"] = list(st, "responses")[1:]
		wantAction(t, eval(t, st), "plan-remediation", "findings")
	})
	t.Run("zero-findings-review", func(t *testing.T) {
		st := state(fixture.StateZeroFindings)
		r := zeroFindings()
		r["source"], r["commit_sha"] = "review", fixture.StateHeadSHA
		st["responses"] = []any{r}
		wantAction(t, eval(t, st), "plan-finalization", "zero-findings")
	})
	t.Run("issue-comment-without-verdict-is-ambiguous", func(t *testing.T) {
		wantAction(t, eval(t, state(fixture.StateAmbiguous)), "halt", "ambiguous-response")
	})
	// Codex's findings issue comment: classify gives it the requested head as
	// commit_sha (a notice or unknown comment keeps null, as above).
	t.Run("findings-issue-comment-is-findings", func(t *testing.T) {
		st := state(fixture.StateAmbiguous)
		ruletest.Obj(st, "responses", 0)["commit_sha"] = fixture.StateHeadSHA
		wantAction(t, eval(t, st), "plan-remediation", "findings")
		rep := fixture.State(fixture.StateOptions{Scenario: fixture.StateAmbiguous, Mode: "report-only"})
		ruletest.Obj(rep, "responses", 1)["commit_sha"] = fixture.StateHeadSHA // 0 is the older one
		wantAction(t, eval(t, rep), "report", "findings")
	})
	// Rule (b): the summary comment, created for an earlier review, qualifies
	// by the edit that said ✅ Completed.
	t.Run("summary-qualifies-by-its-edit", func(t *testing.T) {
		st := state(fixture.StateZeroFindings)
		r := ruletest.Obj(st, "responses", 0)
		r["created_at"] = "2026-02-27T08:00:00Z"
		wantAction(t, eval(t, st), "plan-finalization", "zero-findings")
		r["content_version_at"] = "2026-02-27T08:00:00Z"
		if res := eval(t, st); res.Action != "halt" || res.Reason != "schema" {
			t.Fatalf("an issue comment neither created nor edited since the request qualified: %+v", res)
		}
	})
	t.Run("review-never-qualifies-by-edit", func(t *testing.T) {
		st := state(fixture.StateFindings)
		ruletest.Obj(st, "responses", 0)["created_at"] = "2026-02-27T08:00:00Z"
		if res := eval(t, st); res.Action != "halt" || res.Reason != "schema" {
			t.Fatalf("a review created before the request qualified: %+v", res)
		}
	})
}

// TestReportClassification covers step 2 beyond the fixtures' own classes.
func TestReportClassification(t *testing.T) {
	report := func(sc fixture.StateScenario) map[string]any {
		return fixture.State(fixture.StateOptions{Scenario: sc, Mode: "report-only"})
	}
	t.Run("older-response-does-not-qualify", func(t *testing.T) {
		st := report(fixture.StateAwaiting)
		if len(list(st, "responses")) != 1 || ruletest.Obj(st, "responses", 0)["trigger_request_comment_id"] != nil {
			t.Fatalf("fixture should carry one older response")
		}
		r := eval(t, st)
		wantAction(t, r, "report", "awaiting-response")
	})
	t.Run("zero-findings-needs-current-head", func(t *testing.T) {
		st := report(fixture.StateZeroFindings)
		st["current_head_sha"] = fixture.StateOldHeadSHA
		ruletest.Obj(st, "pr")["head_sha"] = fixture.StateOldHeadSHA
		r := eval(t, st)
		wantAction(t, r, "report", "ambiguous")
	})
	t.Run("zero-findings-needs-pr-head", func(t *testing.T) {
		st := report(fixture.StateZeroFindings)
		ruletest.Obj(st, "pr")["head_sha"] = fixture.StateOldHeadSHA
		wantAction(t, eval(t, st), "report", "ambiguous")
	})
	t.Run("actionable-threads-are-findings", func(t *testing.T) {
		st := report(fixture.StateZeroFindings)
		st["actionable_codex_threads"] = stateOf(fixture.StateFindings)["actionable_codex_threads"]
		wantAction(t, eval(t, st), "report", "findings")
	})
}

// TestRefine: an ambiguous verdict caused by a known Codex notice names it.
func TestRefine(t *testing.T) {
	notice := classify.Notice{Source: "issue-comment", ID: "6002", Kind: classify.NoticeUsageLimit,
		Text: "You have reached your Codex usage limits.\x1b[2J"}
	refine := func(t *testing.T, st map[string]any, notices ...classify.Notice) evaluate.Result {
		s, raw := decode(t, st)
		return evaluate.Refine(evaluate.EvaluateState(s, raw), s, notices)
	}
	t.Run("halt", func(t *testing.T) {
		r := refine(t, state(fixture.StateAmbiguous), notice)
		wantAction(t, r, "halt", "codex-notice")
		if !strings.Contains(r.Message, `"You have reached your Codex usage limits.\x1b[2J"`) {
			t.Fatalf("message must quote the notice with escapes: %q", r.Message)
		}
	})
	t.Run("report", func(t *testing.T) {
		r := refine(t, fixture.State(fixture.StateOptions{Scenario: fixture.StateAmbiguous, Mode: "report-only"}), notice)
		wantAction(t, r, "report", "codex-notice")
		if r.Classification != "ambiguous" {
			t.Fatalf("classification %q", r.Classification)
		}
	})
	t.Run("other-response", func(t *testing.T) {
		other := notice
		other.ID = "6003"
		wantAction(t, refine(t, state(fixture.StateAmbiguous), other), "halt", "ambiguous-response")
		other = notice
		other.Source = "review"
		wantAction(t, refine(t, state(fixture.StateAmbiguous), other), "halt", "ambiguous-response")
	})
	t.Run("older-response-is-not-the-verdict", func(t *testing.T) {
		st := fixture.State(fixture.StateOptions{Scenario: fixture.StateAmbiguous, Mode: "report-only"})
		old := notice
		old.ID = "5001" // the older, non-qualifying response
		r := refine(t, st, old)
		wantAction(t, r, "report", "ambiguous")
	})
	t.Run("only-ambiguous-results", func(t *testing.T) {
		st := state(fixture.StateFindings)
		n := notice
		n.Source, n.ID = "review", "7001"
		wantAction(t, refine(t, st, n), "plan-remediation", "findings")
	})
	t.Run("quote-clipped", func(t *testing.T) {
		long := notice
		long.Text = strings.Repeat("é", 300)
		r := refine(t, state(fixture.StateAmbiguous), long)
		if !strings.Contains(r.Message, `"`+strings.Repeat("é", 200)+`"…`) || strings.Contains(r.Message, strings.Repeat("é", 201)) {
			t.Fatalf("message must quote exactly 200 runes: %q", r.Message)
		}
	})
}

func zeroFindings() map[string]any {
	return copyObj(ruletest.Obj(stateOf(fixture.StateZeroFindings), "responses", 0))
}

func stateOf(sc fixture.StateScenario) map[string]any { return state(sc) }
