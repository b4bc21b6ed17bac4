package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
)

// schemaCase breaks one schema rule of a valid fixture state.
type schemaCase struct {
	name   string
	sc     fixture.StateScenario
	mode   string
	mutate func(st map[string]any)
	// keep skips RecomputeState, for rules about the derived values it seals.
	keep       bool
	path, code string
	// others allows further problems the same change necessarily causes.
	others bool
}

func runSchemaCases(t *testing.T, cases []schemaCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := fixture.State(fixture.StateOptions{Scenario: tc.sc, Mode: tc.mode})
			tc.mutate(st)
			if !tc.keep {
				fixture.RecomputeState(st)
			}
			r := eval(t, st)
			wantAction(t, r, "halt", "schema")
			if tc.others {
				wantHas(t, r.Errors, tc.path, tc.code)
			} else {
				wantOnly(t, r.Errors, tc.path, tc.code)
			}
		})
	}
}

// TestStateDecode: exact decoding errors of core/schema halt with reason schema.
func TestStateDecode(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "unknown-field", mutate: func(st map[string]any) { st["extra"] = true }, path: "/extra", code: problems.UnknownField},
		{name: "missing-field", mutate: func(st map[string]any) { delete(st, "gates") }, path: "/gates", code: problems.MissingField},
		{name: "manifest-kind", sc: fixture.StateRemediationApproved,
			mutate: func(st map[string]any) { ruletest.Obj(st, "remediation_manifest")["kind"] = "finalization" },
			path:   "/remediation_manifest/kind", code: problems.InvalidValue},
	})
	r := evalValue(t, []any{})
	wantAction(t, r, "halt", "schema")
	wantOnly(t, r.Errors, "", problems.WrongType)
}

// TestStateModeFields: the write modes need their checkpoint identities and
// a request; report-only has none of the write-mode fields.
func TestStateModeFields(t *testing.T) {
	var cases []schemaCase
	for _, key := range []string{"automation_key", "owned_automation_id", "remote_name",
		"request_comment_id", "request_created_at", "request_deadline", "request_head_sha"} {
		cases = append(cases, schemaCase{name: "write-mode-needs-" + key, keep: true,
			mutate: func(st map[string]any) { st[key] = nil }, path: "/" + key, code: problems.NullNotAllowed})
	}
	full := fixture.State(fixture.StateOptions{Scenario: fixture.StateClaimed})
	fin := fixture.State(fixture.StateOptions{Scenario: fixture.StateFinalized})
	for _, key := range []string{"automation_key", "owned_automation_id", "remote_name", "execution_boundary", "claim",
		"remediation_approval", "remediation_manifest", "remediation_plan_hash",
		"finalization_approval", "finalization_manifest", "finalization_plan_hash", "finalized_at", "merge_gate_report"} {
		src := full
		if _, ok := full[key]; !ok || full[key] == nil {
			src = fin
		}
		cases = append(cases, schemaCase{name: "report-only-nulls-" + key, mode: "report-only", keep: true, others: true,
			mutate: func(st map[string]any) { st[key] = src[key] }, path: "/" + key, code: problems.InvalidValue})
	}
	cases = append(cases, schemaCase{name: "report-only-no-automations", mode: "report-only",
		mutate: func(st map[string]any) { st["automations"] = full["automations"] }, path: "/automations", code: problems.InvalidValue})
	runSchemaCases(t, cases)
}

func TestStateIdentity(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "automation-key-canonical", mutate: func(st map[string]any) { st["automation_key"] = "loop-42" },
			path: "/automation_key", code: problems.Mismatch},
		{name: "owned-automation-id-non-empty", mutate: func(st map[string]any) { st["owned_automation_id"] = "" },
			path: "/owned_automation_id", code: problems.InvalidValue},
		{name: "remote-name-ref-format", mutate: func(st map[string]any) { st["remote_name"] = "-origin" },
			path: "/remote_name", code: problems.InvalidValue},
		{name: "repository-lowercase", others: true, mutate: func(st map[string]any) { st["repository"] = "Octo-Org/hello-world" },
			path: "/repository", code: problems.InvalidValue},
		{name: "base-branch-ref-format", mutate: func(st map[string]any) { st["base_branch"] = "main..x" },
			path: "/base_branch", code: problems.InvalidValue},
		{name: "head-branch-ref-format", mutate: func(st map[string]any) { st["head_branch"] = "fix branch" },
			path: "/head_branch", code: problems.InvalidValue},
		{name: "pr-url-canonical", mutate: func(st map[string]any) { ruletest.Obj(st, "pr")["url"] = "https://github.com/octo-org/other/pull/42" },
			path: "/pr/url", code: problems.Mismatch},
	})
	// GitHub spells the owner as created; the URL matches without case.
	st := state(fixture.StateAwaiting)
	ruletest.Obj(st, "pr")["url"] = "https://github.com/Octo-Org/Hello-World/pull/42"
	wantAction(t, eval(t, st), "wait", "awaiting-response")
}

func TestStateRequest(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "deadline-product-form", keep: true,
			mutate: func(st map[string]any) { st["request_deadline"] = "2026-03-01T10:30:00+00:00" },
			path:   "/request_deadline", code: problems.InvalidTimestamp},
		{name: "deadline-is-created-plus-timeout", keep: true,
			mutate: func(st map[string]any) { st["request_deadline"] = "2026-03-01T10:31:00Z" },
			path:   "/request_deadline", code: problems.Policy},
		{name: "report-only-request-fields-together", mode: "report-only",
			mutate: func(st map[string]any) { st["request_head_sha"] = nil },
			path:   "/request_head_sha", code: problems.Inconsistent},
		{name: "report-only-no-request-fields-together", sc: fixture.StateNoRequest, mode: "report-only",
			mutate: func(st map[string]any) { st["request_head_sha"] = fixture.StateHeadSHA },
			path:   "/request_head_sha", code: problems.Inconsistent},
		{name: "completed-key-form", mutate: func(st map[string]any) { list(st, "completed_request_keys")[0] = "900:ABC" },
			path: "/completed_request_keys/0", code: problems.InvalidValue},
		{name: "completed-key-unique", mutate: func(st map[string]any) {
			st["completed_request_keys"] = append(list(st, "completed_request_keys"), list(st, "completed_request_keys")[0])
		}, path: "/completed_request_keys/1", code: problems.Duplicate},
	})
	// The deadline is an instant: a request created with an offset still
	// has its deadline in the product's UTC form.
	st := state(fixture.StateAwaiting)
	st["request_created_at"] = "2026-03-01T11:00:00+01:00"
	st["request_deadline"] = "2026-03-01T10:30:00Z"
	wantAction(t, eval(t, st), "wait", "awaiting-response")
}

func TestStateThreads(t *testing.T) {
	two := func(st map[string]any) []any {
		ts := list(st, "actionable_codex_threads")
		second := fixture.State(fixture.StateOptions{Scenario: fixture.StateFindings, Threads: 2})
		ts = append(ts, list(second, "actionable_codex_threads")[1])
		st["actionable_codex_threads"] = ts
		return ts
	}
	runSchemaCases(t, []schemaCase{
		{name: "actionable-sorted", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ts := two(st)
			ts[0], ts[1] = ts[1], ts[0]
		}, path: "/actionable_codex_threads/1", code: problems.NotSorted},
		{name: "actionable-unique", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ts := two(st)
			ruletest.Obj(ts[1])["id"] = ruletest.Obj(ts[0])["id"]
		}, path: "/actionable_codex_threads/1", code: problems.Duplicate},
		{name: "eligible-sorted", mutate: func(st map[string]any) {
			e := ruletest.Obj(st, "eligible_codex_threads", 0)
			early := map[string]any{}
			for k, v := range e {
				early[k] = v
			}
			early["id"] = "PRRT_aaa"
			st["eligible_codex_threads"] = []any{e, early}
		}, path: "/eligible_codex_threads/1", code: problems.NotSorted},
		{name: "actionable-and-eligible-disjoint", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "eligible_codex_threads", 0)["id"] = ruletest.Obj(st, "actionable_codex_threads", 0)["id"]
		}, path: "/eligible_codex_threads/0/id", code: problems.Inconsistent},
	})
}

func TestStateResponses(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "sorted-by-source", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			rs := list(st, "responses")
			rs[0], rs[1] = rs[1], rs[0]
		}, path: "/responses/1", code: problems.NotSorted},
		{name: "sorted-by-numeric-id", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			st["responses"] = append(list(st, "responses"), copyObj(ruletest.Obj(st, "responses", 1)))
			ruletest.Obj(st, "responses", 1)["id"] = "10"
			ruletest.Obj(st, "responses", 2)["id"] = "9"
		}, path: "/responses/2", code: problems.NotSorted},
		{name: "unique", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			st["responses"] = append(list(st, "responses"), copyObj(ruletest.Obj(st, "responses", 1)))
		}, path: "/responses/2", code: problems.Duplicate},
		{name: "codex-bot-id", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 0)["bot_id"] = num(41898282)
		}, path: "/responses/0/bot_id", code: problems.Policy},
		{name: "codex-bot-type", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 0)["bot_type"] = "User"
		}, path: "/responses/0/bot_type", code: problems.Policy},
		{name: "inline-comment-never-zero-findings", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 1)["zero_findings_signal"] = true
		}, path: "/responses/1/zero_findings_signal", code: problems.InvalidValue},
		{name: "write-mode-responses-qualify", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 0)["trigger_request_comment_id"] = nil
		}, path: "/responses/0/trigger_request_comment_id", code: problems.Mismatch},
		{name: "trigger-is-pending-request", sc: fixture.StateFindings, mode: "report-only", mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 1)["trigger_request_comment_id"] = num(900)
		}, path: "/responses/1/trigger_request_comment_id", code: problems.Mismatch},
		{name: "qualifying-after-request", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 0)["created_at"] = "2026-03-01T09:59:59Z"
		}, path: "/responses/0/created_at", code: problems.Inconsistent},
		{name: "qualifying-on-requested-head", sc: fixture.StateFindings, mutate: func(st map[string]any) {
			ruletest.Obj(st, "responses", 0)["commit_sha"] = fixture.StateOldHeadSHA
		}, path: "/responses/0/commit_sha", code: problems.Mismatch},
	})
	// Numeric order: "9" before "10" although "10" < "9" as text.
	st := state(fixture.StateFindings)
	st["responses"] = append(list(st, "responses"), copyObj(ruletest.Obj(st, "responses", 1)))
	ruletest.Obj(st, "responses", 1)["id"] = "9"
	ruletest.Obj(st, "responses", 2)["id"] = "10"
	wantAction(t, eval(t, st), "plan-remediation", "findings")
}

func TestStatePlanFields(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "remediation-hash-present", sc: fixture.StateRemediationPlanned, keep: true,
			mutate: func(st map[string]any) { st["remediation_plan_hash"] = nil },
			path:   "/remediation_plan_hash", code: problems.Inconsistent},
		{name: "remediation-hash-absent", sc: fixture.StateFindings, keep: true,
			mutate: func(st map[string]any) { st["remediation_plan_hash"] = digest("plan") },
			path:   "/remediation_plan_hash", code: problems.Inconsistent},
		{name: "remediation-hash-canonical", sc: fixture.StateRemediationPlanned, keep: true,
			mutate: func(st map[string]any) { st["remediation_plan_hash"] = digest("plan") },
			path:   "/remediation_plan_hash", code: problems.HashMismatch},
		{name: "remediation-hash-of-raw-manifest", sc: fixture.StateRemediationPlanned, keep: true,
			mutate: func(st map[string]any) { ruletest.Obj(st, "remediation_manifest")["base_branch"] = "main2" },
			path:   "/remediation_plan_hash", code: problems.HashMismatch},
		{name: "finalization-hash-present", sc: fixture.StateFinalizationPlanned, keep: true,
			mutate: func(st map[string]any) { st["finalization_plan_hash"] = nil },
			path:   "/finalization_plan_hash", code: problems.Inconsistent},
		{name: "finalization-hash-absent", sc: fixture.StateZeroFindings, keep: true,
			mutate: func(st map[string]any) { st["finalization_plan_hash"] = digest("plan") },
			path:   "/finalization_plan_hash", code: problems.Inconsistent},
		{name: "finalization-hash-canonical", sc: fixture.StateFinalizationPlanned, keep: true,
			mutate: func(st map[string]any) { st["finalization_plan_hash"] = digest("plan") },
			path:   "/finalization_plan_hash", code: problems.HashMismatch},
		{name: "remediation-approval-needs-plan", sc: fixture.StateFindings,
			mutate: func(st map[string]any) { st["remediation_approval"] = approval(digest("plan")) },
			path:   "/remediation_approval", code: problems.Inconsistent},
		{name: "finalization-approval-needs-plan", sc: fixture.StateZeroFindings,
			mutate: func(st map[string]any) { st["finalization_approval"] = approval(digest("plan")) },
			path:   "/finalization_approval", code: problems.Inconsistent},
		{name: "one-plan-at-a-time", sc: fixture.StateRemediationApproved,
			mutate: func(st map[string]any) { st["finalization_manifest"] = fixture.FinalizationManifest(st) },
			path:   "/finalization_manifest", code: problems.Inconsistent},
	})
}

func TestStateClaimAndFinalized(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{name: "claim-ttl", sc: fixture.StateClaimed, keep: true,
			mutate: func(st map[string]any) { ruletest.Obj(st, "claim")["expires_at"] = "2026-03-01T12:00:00Z" },
			path:   "/claim/expires_at", code: problems.Policy},
		{name: "claim-on-pending-request", sc: fixture.StateClaimed,
			mutate: func(st map[string]any) {
				ruletest.Obj(st, "claim")["request_key"] = policy.RequestKey(900, fixture.StateOldHeadSHA)
			},
			path: "/claim/request_key", code: problems.Mismatch},
		{name: "finalized-has-merge-gate-report", sc: fixture.StateFinalized,
			mutate: func(st map[string]any) { st["merge_gate_report"] = nil },
			path:   "/merge_gate_report", code: problems.Inconsistent},
		{name: "merge-gate-report-only-when-finalized", sc: fixture.StatePostMutation,
			mutate: func(st map[string]any) {
				st["merge_gate_report"] = map[string]any{"gates": copyObj(ruletest.Obj(st, "gates")), "read_at": fixture.StateObservedAt}
			},
			path: "/merge_gate_report", code: problems.Inconsistent},
		{name: "finalized-keeps-plan", sc: fixture.StateFinalized,
			mutate: func(st map[string]any) {
				st["finalization_manifest"], st["finalization_plan_hash"], st["finalization_approval"] = nil, nil, nil
			},
			path: "/finalized_at", code: problems.Inconsistent},
	})
}

func approval(hash string) map[string]any {
	return map[string]any{"approved_at": "2026-03-01T10:10:00Z", "approver_id": num(fixture.StateUserID), "plan_hash": hash}
}

func copyObj(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
