package evaluate

import (
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// checkObservedTimes: observed_at is when the observation finished, so every
// time the state says was observed — the request, each response and its
// last edit, each thread's last edit, a claim, an approval, finalization and
// the merge-gate reading, in the state and in a plan it carries — is at or
// before it. A later one is an observation that contradicts itself (a skewed
// or forged clock); judged as it stands, a future zero-findings verdict
// would yield plan-finalization, so it is a schema inconsistency and halts.
// request_deadline and claim.expires_at are times to come by design and are
// not observations.
func checkObservedTimes(s schema.State, errs *problems.List) {
	now, err := schema.ParseTime(s.ObservedAt)
	if err != nil {
		return // decoding already reported it
	}
	at := func(path, value string) {
		if t, err := schema.ParseTime(value); err == nil && t.After(now) {
			errs.Add(path, problems.Inconsistent, "%s is after observed_at %s: an observation cannot record a time it has not reached", value, s.ObservedAt)
		}
	}
	opt := func(path string, value *string) {
		if value != nil {
			at(path, *value)
		}
	}
	threads := func(path string, ts []schema.Thread) {
		for i, t := range ts {
			at(problems.Join(problems.Join(path, i), "content_version_at"), t.ContentVersionAt)
		}
	}
	responses := func(path string, rs []schema.Response) {
		for i, r := range rs {
			p := problems.Join(path, i)
			at(problems.Join(p, "content_version_at"), r.ContentVersionAt)
			at(problems.Join(p, "created_at"), r.CreatedAt)
		}
	}
	threads("/actionable_codex_threads", s.ActionableCodexThreads)
	if s.Claim != nil {
		at("/claim/claimed_at", s.Claim.ClaimedAt)
	}
	threads("/eligible_codex_threads", s.EligibleCodexThreads)
	if a := s.FinalizationApproval; a != nil {
		at("/finalization_approval/approved_at", a.ApprovedAt)
	}
	if m := s.FinalizationManifest; m != nil {
		threads("/finalization_manifest/eligible_threads", m.EligibleThreads)
		responses("/finalization_manifest/responses", m.Responses)
	}
	opt("/finalized_at", s.FinalizedAt)
	if r := s.MergeGateReport; r != nil {
		at("/merge_gate_report/read_at", r.ReadAt)
	}
	if a := s.RemediationApproval; a != nil {
		at("/remediation_approval/approved_at", a.ApprovedAt)
	}
	if m := s.RemediationManifest; m != nil {
		threads("/remediation_manifest/actionable_threads", m.ActionableThreads)
		responses("/remediation_manifest/responses", m.Responses)
	}
	opt("/request_created_at", s.RequestCreatedAt)
	responses("/responses", s.Responses)
}
