package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
)

// TestActionTable reaches every action and reason of the vocabulary from a
// valid fixture state.
func TestActionTable(t *testing.T) {
	const gated, auto, report = "", "autonomous", "report-only"
	for _, tc := range []struct {
		name           string
		sc             fixture.StateScenario
		mode           string
		action, reason string
		class          string
		incons         []string
		planHash       string // "remediation" or "finalization": the state's hash
	}{
		{"awaiting", fixture.StateAwaiting, gated, evaluate.ActionWait, evaluate.ReasonAwaitingResponse, "", nil, ""},
		{"timeout", fixture.StateTimeout, gated, evaluate.ActionHalt, evaluate.ReasonRequestTimeout, "", nil, ""},
		{"findings", fixture.StateFindings, gated, evaluate.ActionPlanRemediation, evaluate.ReasonFindings, "", nil, ""},
		{"zero-findings", fixture.StateZeroFindings, gated, evaluate.ActionPlanFinalization, evaluate.ReasonZeroFindings, "", nil, ""},
		{"ambiguous", fixture.StateAmbiguous, gated, evaluate.ActionHalt, evaluate.ReasonAmbiguousResponse, "", nil, ""},
		{"fix-limit", fixture.StateFixLimit, gated, evaluate.ActionHalt, evaluate.ReasonFixRoundLimit, "", nil, ""},
		{"remediation-planned", fixture.StateRemediationPlanned, gated, evaluate.ActionAwaitApproval, evaluate.ReasonRemediationPlan, "", nil, "remediation"},
		{"remediation-approved", fixture.StateRemediationApproved, gated, evaluate.ActionExecuteRemediation, evaluate.ReasonApproved, "", nil, "remediation"},
		{"remediation-autonomous", fixture.StateRemediationPlanned, auto, evaluate.ActionExecuteRemediation, evaluate.ReasonAutonomous, "", nil, "remediation"},
		{"finalization-planned", fixture.StateFinalizationPlanned, gated, evaluate.ActionAwaitApproval, evaluate.ReasonFinalizationPlan, "", nil, "finalization"},
		{"finalization-approved", fixture.StateFinalizationApproved, gated, evaluate.ActionExecuteFinalization, evaluate.ReasonApproved, "", nil, "finalization"},
		{"finalization-autonomous", fixture.StateFinalizationPlanned, auto, evaluate.ActionExecuteFinalization, evaluate.ReasonAutonomous, "", nil, "finalization"},
		{"post-mutation", fixture.StatePostMutation, gated, evaluate.ActionFinishFinalization, evaluate.ReasonPostMutation, "", nil, "finalization"},
		{"post-mutation-autonomous", fixture.StatePostMutation, auto, evaluate.ActionFinishFinalization, evaluate.ReasonPostMutation, "", nil, "finalization"},
		{"finalized", fixture.StateFinalized, gated, evaluate.ActionDone, evaluate.ReasonFinalized, "", nil, ""},
		{"claimed", fixture.StateClaimed, gated, evaluate.ActionWait, evaluate.ReasonClaimed, "", []string{"claimed"}, ""},
		{"stale-claim", fixture.StateStaleClaim, gated, evaluate.ActionHalt, evaluate.ReasonStaleClaim, "", []string{"stale-claim"}, ""},
		{"bootstrap", fixture.StateBootstrap, gated, evaluate.ActionHalt, evaluate.ReasonPausedBootstrap, "", []string{"paused-bootstrap"}, ""},
		{"bootstrap-autonomous", fixture.StateBootstrap, auto, evaluate.ActionHalt, evaluate.ReasonPausedBootstrap, "", []string{"paused-bootstrap"}, ""},
		{"report-no-request", fixture.StateNoRequest, report, evaluate.ActionReport, evaluate.ClassNoRequest, evaluate.ClassNoRequest, nil, ""},
		{"report-awaiting", fixture.StateAwaiting, report, evaluate.ActionReport, evaluate.ClassAwaitingResponse, evaluate.ClassAwaitingResponse, nil, ""},
		{"report-findings", fixture.StateFindings, report, evaluate.ActionReport, evaluate.ClassFindings, evaluate.ClassFindings, nil, ""},
		{"report-zero-findings", fixture.StateZeroFindings, report, evaluate.ActionReport, evaluate.ClassZeroFindings, evaluate.ClassZeroFindings, nil, ""},
		{"report-ambiguous", fixture.StateAmbiguous, report, evaluate.ActionReport, evaluate.ClassAmbiguous, evaluate.ClassAmbiguous, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := fixture.State(fixture.StateOptions{Scenario: tc.sc, Mode: tc.mode})
			r := eval(t, st)
			wantAction(t, r, tc.action, tc.reason)
			if r.Classification != tc.class {
				t.Errorf("classification %q, want %q", r.Classification, tc.class)
			}
			if !equalStrings(r.Inconsistencies, tc.incons) {
				t.Errorf("inconsistencies %v, want %v", r.Inconsistencies, tc.incons)
			}
			want := ""
			if tc.planHash != "" {
				want = st[tc.planHash+"_plan_hash"].(string)
			}
			if r.PlanHash != want {
				t.Errorf("plan hash %q, want %q", r.PlanHash, want)
			}
			if len(r.Errors) != 0 {
				t.Errorf("errors %v", r.Errors)
			}
		})
	}
}

// TestRiskAcceptanceBoundary: the explicit-risk form of the execution
// boundary is a valid plan too.
func TestRiskAcceptanceBoundary(t *testing.T) {
	st := fixture.State(fixture.StateOptions{Scenario: fixture.StateRemediationApproved, RiskAcceptance: true})
	wantAction(t, eval(t, st), evaluate.ActionExecuteRemediation, evaluate.ReasonApproved)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
