package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

const fm = "/finalization_manifest"

func finalizationErrs(t *testing.T, st map[string]any) problems.List {
	t.Helper()
	s, raw := decode(t, st)
	if s.FinalizationManifest == nil {
		t.Fatal("no finalization manifest")
	}
	return evaluate.Finalization(*s.FinalizationManifest, raw["finalization_manifest"], s, fm)
}

func runFinalizationCases(t *testing.T, cases []planCase) {
	t.Helper()
	runPlanCases(t, cases, fixture.StateFinalizationApproved, "finalization_manifest", finalizationErrs)
}

func TestFinalizationBindings(t *testing.T) {
	otherSHA := "5555555555555555555555555555555555555555"
	post := fixture.StateOptions{Scenario: fixture.StatePostMutation}
	runFinalizationCases(t, []planCase{
		{name: "valid", mutate: func(st, m map[string]any) {}},
		{name: "valid-post-mutation", opts: post, mutate: func(st, m map[string]any) {}},
		{name: "run-id", mutate: func(st, m map[string]any) { m["run_id"] = "ffffffffffffffffffffffffffffffff" },
			path: fm + "/run_id", code: problems.Mismatch},
		{name: "repository", mutate: func(st, m map[string]any) { m["repository"] = "octo-org/other" },
			path: fm + "/repository", code: problems.Mismatch},
		{name: "pr-number", mutate: func(st, m map[string]any) { m["pr_number"] = num(43) },
			path: fm + "/pr_number", code: problems.Mismatch},
		{name: "remote-name", mutate: func(st, m map[string]any) { m["remote_name"] = "upstream" },
			path: fm + "/remote_name", code: problems.Drift},
		{name: "base-branch", mutate: func(st, m map[string]any) { m["base_branch"] = "develop" },
			path: fm + "/base_branch", code: problems.Drift},
		{name: "head-branch", mutate: func(st, m map[string]any) { m["head_branch"] = "other" },
			path: fm + "/head_branch", code: problems.Drift},
		{name: "base-sha", mutate: func(st, m map[string]any) { m["base_sha"] = otherSHA },
			path: fm + "/base_sha", code: problems.Drift},
		{name: "current-head-sha", mutate: func(st, m map[string]any) { m["current_head_sha"] = otherSHA },
			path: fm + "/current_head_sha", code: problems.Drift},
		{name: "request-key", mutate: func(st, m map[string]any) { m["request_key"] = policy.RequestKey(1002, fixture.StateHeadSHA) },
			path: fm + "/request_key", code: problems.Mismatch},
	})
}

func TestFinalizationSnapshot(t *testing.T) {
	twoEligible := func(st, m map[string]any) {
		e := copyObj(ruletest.Obj(st, "eligible_codex_threads", 0))
		e["id"] = "PRRT_zzz"
		st["eligible_codex_threads"] = append(list(st, "eligible_codex_threads"), e)
		st["finalization_manifest"] = fixture.FinalizationManifest(st)
	}
	runFinalizationCases(t, []planCase{
		{name: "eligible-exact", mutate: func(st, m map[string]any) {
			ruletest.Obj(m, "eligible_threads", 0)["content_version_at"] = "2026-03-01T10:09:00Z"
		}, path: fm + "/eligible_threads/0/content_version_at", code: problems.Mismatch},
		{name: "eligible-count", mutate: func(st, m map[string]any) {
			m["eligible_threads"] = []any{}
			m["operations"] = []any{policy.OpMarkDraftReady, policy.OpDeleteAutomation}
		}, path: fm + "/eligible_threads", code: problems.Mismatch},
		{name: "eligible-sorted", others: true, mutate: func(st, m map[string]any) {
			twoEligible(st, m)
			ts := list(ruletest.Obj(st, "finalization_manifest"), "eligible_threads")
			ts[0], ts[1] = ts[1], ts[0]
		}, path: fm + "/eligible_threads/1", code: problems.NotSorted},
		{name: "gates", mutate: func(st, m map[string]any) { ruletest.Obj(m, "gates")["checks"] = policy.GatePending },
			path: fm + "/gates/checks", code: problems.Mismatch},
		{name: "draft", mutate: func(st, m map[string]any) {
			m["pr_is_draft"] = false
			m["operations"] = []any{policy.OpResolveCodexThreads, policy.OpDeleteAutomation}
		}, path: fm + "/pr_is_draft", code: problems.Mismatch},
		{name: "non-codex-rooted", mutate: func(st, m map[string]any) { m["non_codex_rooted_threads"] = num(2) },
			path: fm + "/non_codex_rooted_threads", code: problems.Mismatch},
		{name: "responses-exact", mutate: func(st, m map[string]any) { ruletest.Obj(m, "responses", 0)["body_sha256"] = digest("x") },
			path: fm + "/responses/0/body_sha256", code: problems.Mismatch},
		{name: "responses-all", mutate: func(st, m map[string]any) { m["responses"] = []any{} },
			path: fm + "/responses", code: problems.Mismatch},
		{name: "no-actionable-threads", mutate: func(st, m map[string]any) {
			st["actionable_codex_threads"] = stateOf(fixture.StateFindings)["actionable_codex_threads"]
		}, path: fm, code: problems.Inconsistent},
		{name: "zero-findings-verdict", mutate: func(st, m map[string]any) {
			st["responses"] = stateOf(fixture.StateAmbiguous)["responses"]
			st["finalization_manifest"] = fixture.FinalizationManifest(st)
		}, path: fm + "/responses", code: problems.Inconsistent},
		{name: "no-findings-response", mutate: func(st, m map[string]any) {
			st["responses"] = append(list(st, "responses"), ruletest.Obj(stateOf(fixture.StateFindings), "responses", 0))
			st["finalization_manifest"] = fixture.FinalizationManifest(st)
		}, path: fm + "/responses", code: problems.Inconsistent},
	})
}

func TestFinalizationOperations(t *testing.T) {
	const ops = fm + "/operations"
	undraft := func(st map[string]any) { ruletest.Obj(st, "pr")["is_draft"] = false }
	noEligible := func(st map[string]any) { st["eligible_codex_threads"] = []any{} }
	rebuild := func(fs ...func(map[string]any)) func(st, m map[string]any) {
		return func(st, m map[string]any) {
			for _, f := range fs {
				f(st)
			}
			st["finalization_manifest"] = fixture.FinalizationManifest(st)
		}
	}
	runFinalizationCases(t, []planCase{
		{name: "draft-and-eligible-valid", mutate: rebuild()},
		{name: "eligible-only-valid", mutate: rebuild(undraft)},
		{name: "draft-only-valid", mutate: rebuild(noEligible)},
		{name: "delete-only-valid", mutate: rebuild(undraft, noEligible)},
		{name: "mark-draft-ready-for-draft", mutate: func(st, m map[string]any) {
			m["operations"] = list(m, "operations")[1:]
		}, path: ops + "/0", code: problems.OperationOrder},
		{name: "no-mark-draft-ready-otherwise", mutate: func(st, m map[string]any) {
			undraft(st)
			m["pr_is_draft"] = false
		}, path: ops + "/0", code: problems.OperationOrder},
		{name: "resolve-when-eligible", mutate: func(st, m map[string]any) {
			m["operations"] = []any{policy.OpMarkDraftReady, policy.OpDeleteAutomation}
		}, path: ops + "/1", code: problems.OperationOrder},
		{name: "no-resolve-otherwise", mutate: func(st, m map[string]any) {
			rebuild(noEligible)(st, m)
			ruletest.Obj(st, "finalization_manifest")["operations"] = []any{policy.OpMarkDraftReady, policy.OpResolveCodexThreads, policy.OpDeleteAutomation}
		}, path: ops + "/1", code: problems.OperationOrder},
		{name: "delete-last", mutate: func(st, m map[string]any) {
			m["operations"] = []any{policy.OpMarkDraftReady, policy.OpDeleteAutomation, policy.OpResolveCodexThreads}
		}, path: ops + "/1", code: problems.OperationOrder},
		{name: "always-delete", mutate: func(st, m map[string]any) {
			m["operations"] = []any{policy.OpMarkDraftReady, policy.OpResolveCodexThreads}
		}, path: ops + "/2", code: problems.OperationOrder},
	})
}

func TestFinalizationHeader(t *testing.T) {
	s, raw := decode(t, state(fixture.StateFinalizationApproved))
	for _, tc := range []struct {
		name   string
		mutate func(m *schema.FinalizationManifest)
		path   string
		code   string
	}{
		{"kind", func(m *schema.FinalizationManifest) { m.Kind = "remediation" }, fm + "/kind", problems.InvalidValue},
		{"version", func(m *schema.FinalizationManifest) { m.Version = 0 }, fm + "/version", problems.Policy},
		{"policy-version", func(m *schema.FinalizationManifest) { m.PolicySchemaVersion = 0 }, fm + "/policy_schema_version", problems.Policy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := *s.FinalizationManifest
			tc.mutate(&m)
			wantOnly(t, evaluate.Finalization(m, nil, s, fm), tc.path, tc.code)
		})
	}
	t.Run("raw-is-the-same-document", func(t *testing.T) {
		other := state(fixture.StatePostMutation)
		wantOnly(t, evaluate.Finalization(*s.FinalizationManifest, roundTrip(t, ruletest.Obj(other, "finalization_manifest")), s, fm), fm, problems.HashMismatch)
		if errs := evaluate.Finalization(*s.FinalizationManifest, raw["finalization_manifest"], s, fm); len(errs) != 0 {
			t.Fatalf("%s", describe(errs))
		}
	})
}

func TestFinalizationInvalidPlanHalts(t *testing.T) {
	st := state(fixture.StatePostMutation)
	ruletest.Obj(st, "finalization_manifest", "gates")["approvals"] = policy.GateFail
	fixture.RecomputeState(st)
	r := eval(t, st)
	wantAction(t, r, "halt", "invalid-plan")
	wantOnly(t, r.Errors, fm+"/gates/approvals", problems.Mismatch)
}

func TestBuildFinalization(t *testing.T) {
	for _, sc := range []fixture.StateScenario{fixture.StateFinalizationApproved, fixture.StatePostMutation} {
		st := state(sc)
		s, raw := decode(t, st)
		built := evaluate.BuildFinalization(s)
		got, err := canon.HashValue(built)
		if err != nil {
			t.Fatal(err)
		}
		if got != st["finalization_plan_hash"] {
			b, _ := canon.Marshal(built)
			w, _ := canon.Encode(raw["finalization_manifest"])
			t.Fatalf("built manifest differs from the fixture:\n got %s\nwant %s", b, w)
		}
		if errs := evaluate.Finalization(built, nil, s, fm); len(errs) != 0 {
			t.Fatalf("built plan rejected: %s", describe(errs))
		}
		if len(built.Responses) > 0 {
			built.Responses[0].ID = "changed"
			if s.Responses[0].ID == "changed" {
				t.Fatal("the built plan aliases the state")
			}
		}
	}
}
