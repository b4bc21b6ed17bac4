package evaluate

import (
	"slices"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// plans is step 4: a plan in the state is validated against the state, then
// waits for its approval or is executed. decided is false without a plan.
func plans(s schema.State, raw map[string]any, checkRaw bool) (r Result, decided bool) {
	rawPlan := func(key string) any {
		if !checkRaw {
			return nil
		}
		return raw[key]
	}
	switch {
	case s.RemediationManifest != nil:
		if errs := Remediation(*s.RemediationManifest, rawPlan("remediation_manifest"), s, "/remediation_manifest"); !errs.Empty() {
			return invalidPlan("remediation", errs), true
		}
		return gate(s, *s.RemediationPlanHash, s.RemediationApproval, ActionExecuteRemediation, ReasonRemediationPlan,
			"fix round "+itoa(s.FixRounds+1)), true
	case s.FinalizationManifest != nil:
		m := *s.FinalizationManifest
		if errs := Finalization(m, rawPlan("finalization_manifest"), s, "/finalization_manifest"); !errs.Empty() {
			return invalidPlan("finalization", errs), true
		}
		hash := *s.FinalizationPlanHash
		if requestCompleted(s) {
			if !slices.Equal(m.Operations, []string{policy.OpDeleteAutomation}) {
				r := halt(ReasonFinalizationIncomplete, "the finalization operations ran but the fresh plan still lists "+joinOps(m.Operations))
				r.PlanHash = hash
				return r, true
			}
			r := result(ActionFinishFinalization, ReasonPostMutation, "delete the owned automation and report the fresh merge gates")
			r.PlanHash = hash
			return r, true
		}
		return gate(s, hash, s.FinalizationApproval, ActionExecuteFinalization, ReasonFinalizationPlan, joinOps(m.Operations)), true
	}
	return Result{}, false
}

// gate: approval-gated needs an approval naming exactly this plan hash.
func gate(s schema.State, hash string, approval *schema.Approval, execute, awaitReason, what string) Result {
	var r Result
	switch {
	case s.Mode == policy.ModeApprovalGated && (approval == nil || approval.PlanHash != hash):
		r = result(ActionAwaitApproval, awaitReason, "approve "+what+" by typing its plan hash "+hash)
	case s.Mode == policy.ModeApprovalGated:
		r = result(execute, ReasonApproved, "execute the approved plan: "+what)
	default:
		r = result(execute, ReasonAutonomous, "execute the plan: "+what)
	}
	r.PlanHash = hash
	return r
}

func invalidPlan(kind string, errs problems.List) Result {
	r := halt(ReasonInvalidPlan, "the "+kind+" plan in the state does not match the state ("+itoa(int64(errs.Count()))+" problems)")
	r.Errors = errs
	return r
}

func joinOps(ops []string) string {
	out := ""
	for i, op := range ops {
		if i > 0 {
			out += ", "
		}
		out += op
	}
	return "[" + out + "]"
}
