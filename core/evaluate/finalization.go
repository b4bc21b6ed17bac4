package evaluate

import (
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
)

// ExpectedFinalizationOperations is the one operation list a finalization
// plan may carry: mark-draft-ready for a draft, resolve-codex-threads when
// eligible threads exist, and always delete-owned-automation last.
func ExpectedFinalizationOperations(isDraft bool, eligible int) []string {
	ops := []string{}
	if isDraft {
		ops = append(ops, policy.OpMarkDraftReady)
	}
	if eligible > 0 {
		ops = append(ops, policy.OpResolveCodexThreads)
	}
	return append(ops, policy.OpDeleteAutomation)
}

// Finalization checks every binding of a finalization manifest (the seed's
// "Finalization manifest") to the recurring state s; mRaw and path as for
// Remediation.
func Finalization(m schema.FinalizationManifest, mRaw any, s schema.State, path string) problems.List {
	errs := problems.List{}
	at := func(key string) string { return problems.Join(path, key) }
	sameRaw(m, mRaw, schema.DecodeFinalizationManifest, path, &errs)
	checkPlanHeader(m.Kind, "finalization", m.Version, m.PolicySchemaVersion, path, &errs)
	checkPlanIdentity(planIdentity{m.RunID, m.Repository, m.PRNumber, m.RemoteName, m.BaseBranch, m.HeadBranch,
		m.BaseSHA, m.CurrentHeadSHA, m.RequestKey}, s, path, &errs)

	sameThreads(m.EligibleThreads, s.EligibleCodexThreads, at("eligible_threads"), "the state's eligible_codex_threads", &errs)
	sameAs(m.Gates, s.Gates, at("gates"), problems.Mismatch, "the state's gates", &errs)
	if m.PRIsDraft != s.PR.IsDraft {
		errs.Add(at("pr_is_draft"), problems.Mismatch, "must be the pull request's draft state %t", s.PR.IsDraft)
	}
	if m.NonCodexRootedThreads != s.NonCodexRootedThreads {
		errs.Add(at("non_codex_rooted_threads"), problems.Mismatch, "must be the state's count %d", s.NonCodexRootedThreads)
	}
	sameResponses(m.Responses, s.Responses, at("responses"), &errs)
	// Finishing is only for a clean verdict; new findings void the plan.
	if len(s.ActionableCodexThreads) > 0 {
		errs.Add(path, problems.Inconsistent, "the state has %d actionable Codex threads", len(s.ActionableCodexThreads))
	}
	if v := readVerdict(s); !v.zero || v.findings {
		errs.Add(at("responses"), problems.Inconsistent, "the responses are not a zero-findings verdict for the requested head")
	}
	validate.CheckOperations(m.Operations, ExpectedFinalizationOperations(m.PRIsDraft, len(m.EligibleThreads)), at("operations"), &errs)
	return errs
}

// BuildFinalization builds the finalization manifest for s.
func BuildFinalization(s schema.State) schema.FinalizationManifest {
	m := schema.FinalizationManifest{
		BaseBranch:            s.BaseBranch,
		BaseSHA:               s.BaseSHA,
		CurrentHeadSHA:        s.CurrentHeadSHA,
		EligibleThreads:       clone(s.EligibleCodexThreads),
		Gates:                 s.Gates,
		HeadBranch:            s.HeadBranch,
		Kind:                  "finalization",
		NonCodexRootedThreads: s.NonCodexRootedThreads,
		Operations:            ExpectedFinalizationOperations(s.PR.IsDraft, len(s.EligibleCodexThreads)),
		PolicySchemaVersion:   policy.SchemaVersion,
		PRIsDraft:             s.PR.IsDraft,
		PRNumber:              s.PR.Number,
		Repository:            s.Repository,
		RequestKey:            requestKey(s),
		Responses:             clone(s.Responses),
		RunID:                 s.RunID,
		Version:               1,
	}
	if s.RemoteName != nil {
		m.RemoteName = *s.RemoteName
	}
	return m
}
