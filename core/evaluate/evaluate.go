package evaluate

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// Evaluate decodes a parsed recurring state (a canon Value) and evaluates it.
func Evaluate(raw any) Result {
	errs := problems.List{}
	s := schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		return schemaHalt(errs)
	}
	return evaluateState(s, raw, false)
}

// EvaluateState evaluates a decoded state; raw is the same state as parsed,
// from which the plan hashes are recomputed. The steps run in PROTOCOL §5's
// order and the first that decides wins. Because s and raw come from the
// caller, a plan in s is also checked to be the plan in raw.
func EvaluateState(s schema.State, raw any) Result { return evaluateState(s, raw, true) }

// evaluateState: checkRaw is false only when s was just decoded from raw
// here, which makes the plan-versus-raw comparison redundant.
func evaluateState(s schema.State, raw any, checkRaw bool) Result {
	errs := problems.List{}
	rawObj, _ := raw.(map[string]any)
	checkState(s, rawObj, &errs)
	if !errs.Empty() {
		return schemaHalt(errs)
	}
	if s.Mode == policy.ModeReportOnly {
		return report(s)
	}
	if s.FinalizedAt != nil {
		return result(ActionDone, ReasonFinalized, "finalized at "+*s.FinalizedAt+"; nothing is left to do")
	}
	if found := consistency(s); len(found) > 0 {
		reasons := make([]string, len(found))
		for i, f := range found {
			reasons[i] = f.reason
		}
		action := ActionHalt
		if found[0].reason == ReasonClaimed {
			action = ActionWait
		}
		r := result(action, found[0].reason, found[0].message)
		r.Inconsistencies = reasons
		return r
	}
	if r, decided := plans(s, rawObj, checkRaw); decided {
		return r
	}
	return verdictAction(s)
}

func schemaHalt(errs problems.List) Result {
	r := halt(ReasonSchema, fmt.Sprintf("the state is not a valid v1 recurring state (%d problems)", errs.Count()))
	r.Errors = errs
	return r
}

// verdictAction is steps 5 to 8: what the Codex responses to the pending
// request call for.
func verdictAction(s schema.State) Result {
	v := readVerdict(s)
	if v.qualifying == 0 {
		observed, _ := schema.ParseTime(s.ObservedAt)
		deadline, _ := schema.ParseTime(*s.RequestDeadline)
		if observed.Before(deadline) {
			return result(ActionWait, ReasonAwaitingResponse, "waiting for Codex to answer request "+requestKey(s)+" until "+*s.RequestDeadline)
		}
		return halt(ReasonRequestTimeout, "Codex did not answer request "+requestKey(s)+" by "+*s.RequestDeadline)
	}
	if len(s.ActionableCodexThreads) > 0 || v.findings {
		if s.FixRounds >= policy.MaxFixRounds {
			return halt(ReasonFixRoundLimit, fmt.Sprintf("Codex still has findings after %d fix rounds (the limit is %d)", s.FixRounds, policy.MaxFixRounds))
		}
		return result(ActionPlanRemediation, ReasonFindings,
			fmt.Sprintf("plan fix round %d for %d actionable Codex threads", s.FixRounds+1, len(s.ActionableCodexThreads)))
	}
	if v.zero {
		msg := "Codex found no major issues on " + s.CurrentHeadSHA + "; plan finalization"
		if requestCompleted(s) {
			msg = "the finalization operations ran; plan the post-mutation finalization"
		}
		return result(ActionPlanFinalization, ReasonZeroFindings, msg)
	}
	return halt(ReasonAmbiguousResponse, fmt.Sprintf("%d Codex responses are neither findings nor a zero-findings verdict for %s", v.qualifying, s.CurrentHeadSHA))
}
