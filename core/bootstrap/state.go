package bootstrap

import (
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// checkState enforces the seed's bootstrap-state paragraph: the state is the
// complete recurring state of a freshly bootstrapped loop, bound to the
// approved initial identities. The recurring evaluator checks the same state
// for general consistency afterwards; these are the bootstrap-specific facts.
func (b *bind) checkState() {
	st := b.doc.BootstrapSnapshot.State
	s := b.doc.InitialDocument.InitialSnapshot
	m := b.doc.InitialDocument.InitialManifest
	ok := b.d.CleanAt
	at := func(k string) string { return pState + "/" + k }
	sp := func(k string) string { return pSnapshot + "/" + k }

	// The same identities as the approved plan.
	b.equal(at("repository"), sp("repository"), st.Repository, s.Repository)
	b.equal(at("run_id"), pManifest+"/run_id", st.RunID, m.RunID)
	if ok(at("authenticated_user_id"), sp("authenticated_user_id")) && st.AuthenticatedUserID != s.AuthenticatedUserID {
		b.add(at("authenticated_user_id"), problems.Mismatch, "is %d, the approving user is %d", st.AuthenticatedUserID, s.AuthenticatedUserID)
	}
	if ok(at("mode")) {
		if st.Mode == policy.ModeReportOnly {
			b.add(at("mode"), problems.Policy, "report-only has no initial write plan and is never bootstrapped")
		} else if ok(pManifest+"/mode") && st.Mode != m.Mode {
			b.add(at("mode"), problems.Mismatch, "is %q, the approved mode is %q", st.Mode, m.Mode)
		}
	}
	b.equal(at("base_branch"), sp("base_branch"), st.BaseBranch, s.BaseBranch)
	b.equal(at("head_branch"), sp("head_branch"), st.HeadBranch, s.HeadBranch)
	b.equal(at("base_sha"), sp("base_sha"), st.BaseSHA, s.BaseSHA)
	b.equalPtr(at("remote_name"), sp("remote_name"), st.RemoteName, s.RemoteName)

	// An open same-repository PR on the approved branches; a reused PR is
	// the one the plan named.
	b.equal(at("pr/base_branch"), sp("base_branch"), st.PR.BaseBranch, s.BaseBranch)
	b.equal(at("pr/head_branch"), sp("head_branch"), st.PR.HeadBranch, s.HeadBranch)
	if ok(at("pr/state")) && st.PR.State != "open" {
		b.add(at("pr/state"), problems.InvalidValue, "the pull request must be open, it is %s", st.PR.State)
	}
	if ok(at("pr/same_repository")) && !st.PR.SameRepository {
		b.add(at("pr/same_repository"), problems.InvalidValue, "the pull request must come from the same repository")
	}
	if n := s.ExistingPRNumber; n != nil && ok(at("pr/number"), sp("existing_pr_number")) && st.PR.Number != *n {
		b.add(at("pr/number"), problems.Mismatch, "is %d, the approved plan reuses pull request %d", st.PR.Number, *n)
	}

	b.checkAutomation(st, s, m)

	// One canonical pending request. That its four fields and the loop's
	// identities (automation_key, owned_automation_id, remote_name) are set
	// is the recurring evaluator's write-mode rule; its problems are
	// reported at the same paths (see checkEvaluator).
	// That the request is not after observed_at is the evaluator's
	// observed-times rule (checkObservedTimes), reported at request_created_at.

	// A fresh loop: no rounds, no plans, no approvals, no claim, not finalized.
	if ok(at("fix_rounds")) && st.FixRounds != 0 {
		b.add(at("fix_rounds"), problems.InvalidValue, "must be 0 at bootstrap, got %d", st.FixRounds)
	}
	if ok(at("completed_request_keys")) && len(st.CompletedRequestKeys) != 0 {
		b.add(at("completed_request_keys"), problems.InvalidValue, "must be empty at bootstrap")
	}
	for _, f := range []struct {
		key string
		set bool
	}{
		{"claim", st.Claim != nil},
		{"execution_boundary", st.ExecutionBoundary != nil},
		{"finalization_approval", st.FinalizationApproval != nil},
		{"finalization_manifest", st.FinalizationManifest != nil},
		{"finalization_plan_hash", st.FinalizationPlanHash != nil},
		{"finalized_at", st.FinalizedAt != nil},
		{"merge_gate_report", st.MergeGateReport != nil},
		{"remediation_approval", st.RemediationApproval != nil},
		{"remediation_manifest", st.RemediationManifest != nil},
		{"remediation_plan_hash", st.RemediationPlanHash != nil},
	} {
		if ok(at(f.key)) && f.set {
			b.add(at(f.key), problems.InvalidValue, "must be null at bootstrap")
		}
	}
}

// checkAutomation: exactly one automation, the PAUSED stub with the
// canonical key (built from the approved repository and run), the recorded
// id and the policy schedule. The state's own automation_key and
// owned_automation_id are checked by the recurring evaluator.
func (b *bind) checkAutomation(st schema.State, s schema.InitialSnapshot, m schema.InitialManifest) {
	ok := b.d.CleanAt
	at := func(k string) string { return pState + "/" + k }
	var key string
	keyKnown := ok(pSnapshot+"/repository", at("pr/number"), pManifest+"/run_id")
	if keyKnown {
		key = policy.AutomationKey(s.Repository, st.PR.Number, m.RunID)
	}
	if !ok(at("automations")) {
		return
	}
	if len(st.Automations) != 1 {
		b.add(at("automations"), problems.InvalidValue, "must hold exactly the one bootstrap stub, found %d automations", len(st.Automations))
		return
	}
	a := st.Automations[0]
	ap := at("automations/0")
	if keyKnown && a.Key != key {
		b.add(ap+"/key", problems.Mismatch, "must be the canonical key %s", key)
	}
	if st.OwnedAutomationID != nil && ok(at("owned_automation_id")) && a.ID != *st.OwnedAutomationID {
		b.add(ap+"/id", problems.Mismatch, "must be the recorded owned_automation_id %q", *st.OwnedAutomationID)
	}
	if a.RRule != policy.HeartbeatRRule {
		b.add(ap+"/rrule", problems.Policy, "must be %q, got %q", policy.HeartbeatRRule, a.RRule)
	}
	if a.Status != "PAUSED" {
		b.add(ap+"/status", problems.InvalidValue, "the bootstrap stub must be PAUSED, got %s", a.Status)
	}
}

// equal reports a state field that differs from its approved value, when
// both decoded cleanly.
func (b *bind) equal(path, approvedPath, got, approved string) {
	if b.d.CleanAt(path, approvedPath) && got != approved {
		b.add(path, problems.Mismatch, "is %q, the approved value is %q", clip(got), clip(approved))
	}
}

// equalPtr is equal for a nullable field; null is the evaluator's to report.
func (b *bind) equalPtr(path, approvedPath string, got *string, approved string) {
	if !b.d.CleanAt(path, approvedPath) {
		return
	}
	if got != nil {
		b.equal(path, approvedPath, *got, approved)
	}
}
