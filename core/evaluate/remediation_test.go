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

const rm = "/remediation_manifest"

func remediationErrs(t *testing.T, st map[string]any) problems.List {
	t.Helper()
	s, raw := decode(t, st)
	if s.RemediationManifest == nil {
		t.Fatal("no remediation manifest")
	}
	return evaluate.Remediation(*s.RemediationManifest, raw["remediation_manifest"], s, rm)
}

func runRemediationCases(t *testing.T, cases []planCase) {
	t.Helper()
	runPlanCases(t, cases, fixture.StateRemediationApproved, "remediation_manifest", remediationErrs)
}

// both applies a boundary change to the state and the plan alike, so the
// boundary rule is tested apart from the exact-binding rule.
func both(f func(b map[string]any)) func(st, m map[string]any) {
	return func(st, m map[string]any) {
		f(ruletest.Obj(st, "execution_boundary"))
		f(ruletest.Obj(m, "execution"))
	}
}

func TestRemediationBindings(t *testing.T) {
	otherSHA := "5555555555555555555555555555555555555555"
	runRemediationCases(t, []planCase{
		{name: "valid", mutate: func(st, m map[string]any) {}},
		{name: "run-id", mutate: func(st, m map[string]any) { m["run_id"] = "ffffffffffffffffffffffffffffffff" },
			path: rm + "/run_id", code: problems.Mismatch},
		{name: "repository", mutate: func(st, m map[string]any) { m["repository"] = "octo-org/other" },
			path: rm + "/repository", code: problems.Mismatch},
		{name: "pr-number", mutate: func(st, m map[string]any) { m["pr_number"] = num(43) },
			path: rm + "/pr_number", code: problems.Mismatch},
		{name: "remote-name", mutate: func(st, m map[string]any) { m["remote_name"] = "upstream" },
			path: rm + "/remote_name", code: problems.Drift},
		{name: "base-branch", mutate: func(st, m map[string]any) { m["base_branch"] = "develop" },
			path: rm + "/base_branch", code: problems.Drift},
		{name: "head-branch", mutate: func(st, m map[string]any) { m["head_branch"] = "other" },
			path: rm + "/head_branch", code: problems.Drift},
		{name: "base-sha", mutate: func(st, m map[string]any) { m["base_sha"] = otherSHA },
			path: rm + "/base_sha", code: problems.Drift},
		{name: "current-head-sha", mutate: func(st, m map[string]any) { m["current_head_sha"] = otherSHA },
			path: rm + "/current_head_sha", code: problems.Drift},
		{name: "request-key", mutate: func(st, m map[string]any) { m["request_key"] = policy.RequestKey(1002, fixture.StateHeadSHA) },
			path: rm + "/request_key", code: problems.Mismatch},
		{name: "request-not-completed", mutate: func(st, m map[string]any) {
			st["completed_request_keys"] = append(list(st, "completed_request_keys"), m["request_key"])
		}, path: rm + "/request_key", code: problems.Inconsistent},
	})
	// The plan is on the requested head as well as the current one.
	st := state(fixture.StateRemediationApproved)
	s, raw := decode(t, st)
	old := fixture.StateOldHeadSHA
	s.RequestHeadSHA = &old
	errs := evaluate.Remediation(*s.RemediationManifest, raw["remediation_manifest"], s, rm)
	wantHas(t, errs, rm+"/current_head_sha", problems.Drift)
}

func TestRemediationSnapshotLists(t *testing.T) {
	two := fixture.StateOptions{Scenario: fixture.StateRemediationApproved, Threads: 2, Responses: 3}
	runRemediationCases(t, []planCase{
		{name: "threads-exact", mutate: func(st, m map[string]any) {
			ruletest.Obj(m, "actionable_threads", 0)["body_sha256"] = digest("edited")
		}, path: rm + "/actionable_threads/0/body_sha256", code: problems.Mismatch},
		{name: "threads-all", mutate: func(st, m map[string]any) { m["actionable_threads"] = []any{} },
			path: rm + "/actionable_threads", code: problems.Mismatch},
		{name: "threads-sorted", opts: two, others: true, mutate: func(st, m map[string]any) {
			ts := list(m, "actionable_threads")
			ts[0], ts[1] = ts[1], ts[0]
		}, path: rm + "/actionable_threads/1", code: problems.NotSorted},
		{name: "threads-unique", opts: two, others: true, mutate: func(st, m map[string]any) {
			list(m, "actionable_threads")[1] = list(m, "actionable_threads")[0]
		}, path: rm + "/actionable_threads/1", code: problems.Duplicate},
		{name: "responses-exact", mutate: func(st, m map[string]any) {
			ruletest.Obj(m, "responses", 0)["body_sha256"] = digest("edited")
		}, path: rm + "/responses/0/body_sha256", code: problems.Mismatch},
		{name: "responses-all", mutate: func(st, m map[string]any) { m["responses"] = list(m, "responses")[:1] },
			path: rm + "/responses", code: problems.Mismatch},
		{name: "responses-sorted", opts: two, others: true, mutate: func(st, m map[string]any) {
			rs := list(m, "responses")
			rs[1], rs[2] = rs[2], rs[1]
		}, path: rm + "/responses/2", code: problems.NotSorted},
		{name: "responses-unique", opts: two, others: true, mutate: func(st, m map[string]any) {
			list(m, "responses")[2] = list(m, "responses")[1]
		}, path: rm + "/responses/2", code: problems.Duplicate},
		{name: "something-to-fix", mutate: func(st, m map[string]any) {
			st["actionable_codex_threads"] = []any{}
			st["responses"] = []any{zeroFindings()}
			st["remediation_manifest"] = fixture.RemediationManifest(st)
		}, path: rm, code: problems.Inconsistent},
	})
}

func TestRemediationExecution(t *testing.T) {
	risk := fixture.StateOptions{Scenario: fixture.StateRemediationApproved, RiskAcceptance: true}
	runRemediationCases(t, []planCase{
		{name: "execution-exact", mutate: func(st, m map[string]any) {
			ruletest.Obj(m, "execution", "git")["config_snapshot_sha256"] = digest("config")
		}, path: rm + "/execution/git/config_snapshot_sha256", code: problems.Mismatch},
		{name: "execution-needs-state-boundary", mutate: func(st, m map[string]any) { st["execution_boundary"] = nil },
			path: rm + "/execution", code: problems.Mismatch},
		{name: "safe-every-protection", mutate: both(func(b map[string]any) { ruletest.Obj(b, "git")["hooks_disabled"] = false }),
			path: rm + "/execution/git/hooks_disabled", code: problems.Policy},
		{name: "safe-no-clean-filter", mutate: both(func(b map[string]any) { ruletest.Obj(b, "git")["active_clean_filters"] = []any{"lfs"} }),
			path: rm + "/execution/git/active_clean_filters", code: problems.Policy},
		{name: "safe-null-risk-record", mutate: both(func(b map[string]any) { b["risk_acceptance_sha256"] = digest("risk") }),
			path: rm + "/execution/risk_acceptance_sha256", code: problems.Policy},
		{name: "safe-profile", mutate: both(func(b map[string]any) { ruletest.Obj(b, "git")["profile"] = policy.RiskProfile }),
			path: rm + "/execution/git/profile", code: problems.Policy},
		{name: "credential-strategy", mutate: both(func(b map[string]any) { ruletest.Obj(b, "git")["credential_strategy"] = "ssh-agent" }),
			path: rm + "/execution/git/credential_strategy", code: problems.Policy},
		{name: "isolation", mutate: both(func(b map[string]any) { b["isolation"] = "none" }),
			path: rm + "/execution/isolation", code: problems.InvalidValue},
		{name: "risk-valid", opts: risk, mutate: func(st, m map[string]any) {}},
		{name: "risk-record", opts: risk, mutate: both(func(b map[string]any) { b["risk_acceptance_sha256"] = nil }),
			path: rm + "/execution/risk_acceptance_sha256", code: problems.Policy},
		{name: "risk-profile", opts: risk, mutate: both(func(b map[string]any) { ruletest.Obj(b, "git")["profile"] = policy.SafeProfile }),
			path: rm + "/execution/git/profile", code: problems.Policy},
	})
}

func TestRemediationPathsAndCommands(t *testing.T) {
	setPath := func(i int, p string) func(st, m map[string]any) {
		return func(st, m map[string]any) {
			list(m, "paths")[i] = p
			ruletest.Obj(m, "path_records", i)["path"] = p
		}
	}
	runRemediationCases(t, []planCase{
		{name: "paths-sorted", others: true, mutate: func(st, m map[string]any) {
			ps, rs := list(m, "paths"), list(m, "path_records")
			ps[0], ps[1] = ps[1], ps[0]
			rs[0], rs[1] = rs[1], rs[0]
		}, path: rm + "/paths/1", code: problems.NotSorted},
		{name: "paths-unique", others: true, mutate: func(st, m map[string]any) {
			list(m, "paths")[1] = list(m, "paths")[0]
			list(m, "path_records")[1] = list(m, "path_records")[0]
		}, path: rm + "/paths/1", code: problems.Duplicate},
		{name: "paths-canonical", mutate: setPath(0, "./internal/widget.go"), path: rm + "/paths/0", code: problems.InvalidValue},
		{name: "paths-relative", mutate: setPath(0, "/etc/passwd"), path: rm + "/paths/0", code: problems.InvalidValue},
		{name: "paths-no-git-metadata", mutate: setPath(0, ".git/config"), path: rm + "/paths/0", code: problems.InvalidValue},
		{name: "records-one-for-one", mutate: func(st, m map[string]any) { m["path_records"] = list(m, "path_records")[:1] },
			path: rm + "/paths/1", code: problems.Mismatch},
		{name: "records-inside-worktree", mutate: func(st, m map[string]any) { ruletest.Obj(m, "path_records", 0)["inside_worktree"] = false },
			path: rm + "/path_records/0/inside_worktree", code: problems.InvalidValue},
		{name: "records-outside-git-metadata", mutate: func(st, m map[string]any) { ruletest.Obj(m, "path_records", 1)["outside_git_metadata"] = false },
			path: rm + "/path_records/1/outside_git_metadata", code: problems.InvalidValue},
		{name: "commands-absolute", mutate: func(st, m map[string]any) { list(ruletest.Obj(m, "commands", 0), "argv")[0] = "go" },
			path: rm + "/commands/0/argv/0", code: problems.InvalidValue},
		{name: "commands-argv", mutate: func(st, m map[string]any) { ruletest.Obj(m, "commands", 0)["argv"] = []any{} },
			path: rm + "/commands/0/argv", code: problems.InvalidValue},
		{name: "commands-order-preserved", mutate: func(st, m map[string]any) {
			m["commands"] = append(list(m, "commands"), map[string]any{"argv": []any{"/bin/a"}, "definition_sha256": digest("a")})
		}},
	})
}

func TestRemediationOperations(t *testing.T) {
	noCommands := func(st, m map[string]any) { m["commands"] = []any{} }
	runRemediationCases(t, []planCase{
		{name: "no-commands-no-validation", mutate: noCommands, path: rm + "/operations/1", code: problems.OperationOrder},
		{name: "no-commands-valid", mutate: func(st, m map[string]any) {
			noCommands(st, m)
			m["operations"] = append([]any{policy.OpEditFiles}, list(m, "operations")[2:]...)
		}},
		{name: "commands-need-validation", mutate: func(st, m map[string]any) {
			m["operations"] = append([]any{policy.OpEditFiles}, list(m, "operations")[2:]...)
		}, path: rm + "/operations/1", code: problems.OperationOrder},
		{name: "fixed-order", mutate: func(st, m map[string]any) {
			ops := list(m, "operations")
			ops[2], ops[3] = ops[3], ops[2]
		}, path: rm + "/operations/2", code: problems.OperationOrder},
		{name: "nothing-extra", mutate: func(st, m map[string]any) { m["operations"] = append(list(m, "operations"), "merge") },
			path: rm + "/operations/7", code: problems.OperationOrder},
	})
}

func TestRemediationTemplate(t *testing.T) {
	const tp = rm + "/review_request_body_template"
	marker := func(run string, round int) string { return policy.RequestMarker(run, round, policy.FinalHeadShaMarker) }
	set := func(s string) func(st, m map[string]any) {
		return func(st, m map[string]any) { m["review_request_body_template"] = s }
	}
	run := fixture.StateRunID
	runRemediationCases(t, []planCase{
		{name: "round-is-fix-rounds-plus-one", mutate: set("@codex review\n" + marker(run, 1)), path: tp, code: problems.Template},
		{name: "round-follows-state", mutate: func(st, m map[string]any) {
			st["fix_rounds"] = num(2)
			set("@codex review\n"+marker(run, 3))(st, m)
		}},
		{name: "run-marker", mutate: set("@codex review\n" + marker("ffffffffffffffffffffffffffffffff", 2)), path: tp, code: problems.Template},
		{name: "one-placeholder", mutate: set("@codex review\n{{FINAL_HEAD_SHA}}\n" + marker(run, 2)), path: tp, code: problems.Placeholder},
		{name: "no-other-placeholder", mutate: set("@codex review\n{{PR_TITLE}}\n" + marker(run, 2)), path: tp, code: problems.Placeholder},
		{name: "mentions-codex", mutate: set("please review this fix.\n" + marker(run, 2)), path: tp, code: problems.Template},
		// Any wording but the documented trigger starts a Codex cloud task, not a review.
		{name: "exact-text", mutate: set("@codex please review this fix.\n" + marker(run, 2)), path: tp, code: problems.Template},
		{name: "digest", keep: true, mutate: func(st, m map[string]any) { m["review_request_body_template_sha256"] = digest("template") },
			path: rm + "/review_request_body_template_sha256", code: problems.HashMismatch},
	})
}

// TestRemediationHeader: rules the decoder also enforces hold for a plan
// built in code, which never went through the decoder.
func TestRemediationHeader(t *testing.T) {
	s, raw := decode(t, state(fixture.StateRemediationApproved))
	for _, tc := range []struct {
		name   string
		mutate func(m *schema.RemediationManifest)
		path   string
		code   string
	}{
		{"kind", func(m *schema.RemediationManifest) { m.Kind = "finalization" }, rm + "/kind", problems.InvalidValue},
		{"version", func(m *schema.RemediationManifest) { m.Version = 2 }, rm + "/version", problems.Policy},
		{"policy-version", func(m *schema.RemediationManifest) { m.PolicySchemaVersion = 2 }, rm + "/policy_schema_version", problems.Policy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := *s.RemediationManifest
			tc.mutate(&m)
			wantOnly(t, evaluate.Remediation(m, nil, s, rm), tc.path, tc.code)
		})
	}
	t.Run("raw-is-the-same-document", func(t *testing.T) {
		other := fixture.State(fixture.StateOptions{Scenario: fixture.StateRemediationApproved, RiskAcceptance: true})
		wantOnly(t, evaluate.Remediation(*s.RemediationManifest, roundTrip(t, ruletest.Obj(other, "remediation_manifest")), s, rm), rm, problems.HashMismatch)
		if errs := evaluate.Remediation(*s.RemediationManifest, raw["remediation_manifest"], s, rm); len(errs) != 0 {
			t.Fatalf("%s", describe(errs))
		}
	})
}

// TestRemediationInvalidPlanHalts: a plan that does not match its state
// halts the evaluator with the validator's problems.
func TestRemediationInvalidPlanHalts(t *testing.T) {
	st := state(fixture.StateRemediationApproved)
	ruletest.Obj(st, "remediation_manifest")["run_id"] = "ffffffffffffffffffffffffffffffff"
	fixture.RecomputeState(st)
	r := eval(t, st)
	wantAction(t, r, "halt", "invalid-plan")
	wantOnly(t, r.Errors, rm+"/run_id", problems.Mismatch)
}

// TestBuildRemediation: the builder spells the same manifest as the
// independent fixture, and what it builds is accepted.
func TestBuildRemediation(t *testing.T) {
	for _, opts := range []fixture.StateOptions{
		{Scenario: fixture.StateRemediationApproved},
		{Scenario: fixture.StateRemediationApproved, Threads: 3, Responses: 5, RiskAcceptance: true},
		{Scenario: fixture.StateRemediationApproved, Mode: "autonomous"},
	} {
		st := fixture.State(opts)
		s, raw := decode(t, st)
		m := s.RemediationManifest
		built := evaluate.BuildRemediation(s, evaluate.RemediationInput{Paths: m.Paths, PathRecords: m.PathRecords, Commands: m.Commands})
		gotHash, err := canon.HashValue(built)
		if err != nil {
			t.Fatal(err)
		}
		if gotHash != st["remediation_plan_hash"] {
			b, _ := canon.Marshal(built)
			w, _ := canon.Encode(raw["remediation_manifest"])
			t.Fatalf("built manifest differs from the fixture:\n got %s\nwant %s", b, w)
		}
		if errs := evaluate.Remediation(built, nil, s, rm); len(errs) != 0 {
			t.Fatalf("built plan rejected: %s", describe(errs))
		}
		// The plan owns its lists.
		built.ActionableThreads[0].ID = "changed"
		built.Execution.Git.ActiveCleanFilters = append(built.Execution.Git.ActiveCleanFilters, "x")
		if s.ActionableCodexThreads[0].ID == "changed" || len(s.ExecutionBoundary.Git.ActiveCleanFilters) != len(m.Execution.Git.ActiveCleanFilters) {
			t.Fatal("the built plan aliases the state")
		}
	}
	t.Run("no-commands", func(t *testing.T) {
		s, _ := decode(t, state(fixture.StateFindings))
		built := evaluate.BuildRemediation(s, evaluate.RemediationInput{Paths: []string{"a.go"},
			PathRecords: []schema.PathRecord{{InsideWorktree: true, LstatChainSHA256: digest("l"), OutsideGitMetadata: true, Path: "a.go", ResolvedTargetSHA256: digest("r")}}})
		if errs := evaluate.Remediation(built, nil, s, rm); len(errs) != 0 {
			t.Fatalf("built plan rejected: %s", describe(errs))
		}
		for _, op := range built.Operations {
			if op == policy.OpRunValidation {
				t.Fatal("run-validation without commands")
			}
		}
		b, err := canon.Marshal(built)
		if err != nil || !json(b, `"commands":[]`) {
			t.Fatalf("empty lists must encode as []: %s", b)
		}
	})
}
