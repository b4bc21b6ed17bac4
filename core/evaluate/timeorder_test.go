package evaluate_test

import (
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// afterObserved is one second past the state's observed_at.
func afterObserved(st map[string]any) string {
	t, err := schema.ParseTime(st["observed_at"].(string))
	if err != nil {
		panic(err)
	}
	return schema.FormatTime(t.Add(time.Second))
}

// TestObservedTimesNotAfterObservedAt (issue 12, break 5): every observed
// time in a state is at or before observed_at. Each case moves one time one
// second past it in a state that, as it stands, yields an action (among them
// plan-finalization, execute-…, done and wait/claimed); every digest is
// recomputed, so the time is the only thing wrong, and the state halts with
// reason schema and one inconsistent problem at that time.
func TestObservedTimesNotAfterObservedAt(t *testing.T) {
	set := func(field string, keys ...any) func(st map[string]any) {
		return func(st map[string]any) { ruletest.Obj(st, keys...)[field] = afterObserved(st) }
	}
	runSchemaCases(t, []schemaCase{
		{name: "response-created-at", sc: fixture.StateZeroFindings, mutate: set("created_at", "responses", 0),
			path: "/responses/0/created_at", code: problems.Inconsistent},
		{name: "response-content-version-at", sc: fixture.StateZeroFindings, mutate: set("content_version_at", "responses", 0),
			path: "/responses/0/content_version_at", code: problems.Inconsistent},
		{name: "findings-response-created-at", sc: fixture.StateFindings, mutate: set("created_at", "responses", 1),
			path: "/responses/1/created_at", code: problems.Inconsistent},
		{name: "request-created-at", sc: fixture.StateAwaiting,
			mutate: func(st map[string]any) { st["request_created_at"] = afterObserved(st) },
			path:   "/request_created_at", code: problems.Inconsistent},
		{name: "actionable-thread", sc: fixture.StateFindings, mutate: set("content_version_at", "actionable_codex_threads", 0),
			path: "/actionable_codex_threads/0/content_version_at", code: problems.Inconsistent},
		{name: "claim-claimed-at", sc: fixture.StateClaimed, mutate: set("claimed_at", "claim"),
			path: "/claim/claimed_at", code: problems.Inconsistent},
		{name: "remediation-approval", sc: fixture.StateRemediationApproved, mutate: set("approved_at", "remediation_approval"),
			path: "/remediation_approval/approved_at", code: problems.Inconsistent},
		{name: "remediation-manifest-thread", sc: fixture.StateRemediationApproved,
			mutate: set("content_version_at", "remediation_manifest", "actionable_threads", 0),
			path:   "/remediation_manifest/actionable_threads/0/content_version_at", code: problems.Inconsistent},
		{name: "remediation-manifest-response", sc: fixture.StateRemediationApproved,
			mutate: set("created_at", "remediation_manifest", "responses", 0),
			path:   "/remediation_manifest/responses/0/created_at", code: problems.Inconsistent},
		{name: "finalization-approval", sc: fixture.StateFinalizationApproved, mutate: set("approved_at", "finalization_approval"),
			path: "/finalization_approval/approved_at", code: problems.Inconsistent},
		{name: "finalization-manifest-thread", sc: fixture.StateFinalizationApproved,
			mutate: set("content_version_at", "finalization_manifest", "eligible_threads", 0),
			path:   "/finalization_manifest/eligible_threads/0/content_version_at", code: problems.Inconsistent},
		{name: "finalization-manifest-response", sc: fixture.StateFinalizationApproved,
			mutate: set("content_version_at", "finalization_manifest", "responses", 0),
			path:   "/finalization_manifest/responses/0/content_version_at", code: problems.Inconsistent},
		{name: "eligible-thread", sc: fixture.StateFinalizationPlanned, mutate: set("content_version_at", "eligible_codex_threads", 0),
			path: "/eligible_codex_threads/0/content_version_at", code: problems.Inconsistent},
		{name: "finalized-at", sc: fixture.StateFinalized,
			mutate: func(st map[string]any) { st["finalized_at"] = afterObserved(st) },
			path:   "/finalized_at", code: problems.Inconsistent},
		{name: "merge-gate-report", sc: fixture.StateFinalized, mutate: set("read_at", "merge_gate_report"),
			path: "/merge_gate_report/read_at", code: problems.Inconsistent},
		{name: "report-only-response", sc: fixture.StateZeroFindings, mode: "report-only", mutate: set("created_at", "responses", 0),
			path: "/responses/0/created_at", code: problems.Inconsistent},
	})
}

// TestObservedTimesBoundary: a time exactly at observed_at, and the times
// that are in the future by design (the request deadline, a claim's expiry),
// are not observations past observed_at.
func TestObservedTimesBoundary(t *testing.T) {
	st := state(fixture.StateZeroFindings)
	ruletest.Obj(st, "responses", 0)["created_at"] = st["observed_at"]
	ruletest.Obj(st, "responses", 0)["content_version_at"] = st["observed_at"]
	fixture.RecomputeState(st)
	wantAction(t, eval(t, st), "plan-finalization", "zero-findings")

	claimed := state(fixture.StateClaimed) // expires_at is after observed_at
	wantAction(t, eval(t, claimed), "wait", "claimed")
	awaiting := state(fixture.StateAwaiting) // request_deadline is after observed_at
	wantAction(t, eval(t, awaiting), "wait", "awaiting-response")
}
