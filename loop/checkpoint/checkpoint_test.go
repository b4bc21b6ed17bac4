package checkpoint_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
)

func valid() *checkpoint.Checkpoint {
	run := strings.Repeat("ab", 16)
	return &checkpoint.Checkpoint{
		AutomationID: "auto-1", AutomationKey: policy.AutomationKey("octo/widgets", 7, run), BaseBranch: "main", HeadBranch: "feature",
		Mode: policy.ModeApprovalGated, PRNumber: 7, RemoteName: "origin", Repository: "octo/widgets", RequestCommentID: 11,
		RequestCreatedAt: "2026-03-02T10:00:00Z", RequestDeadline: "2026-03-02T10:30:00Z", RequestHeadSHA: strings.Repeat("d", 40),
		RunID: run, Version: checkpoint.Version,
	}
}

func TestRoundTrip(t *testing.T) {
	c := valid()
	data, err := checkpoint.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := checkpoint.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := checkpoint.Marshal(back)
	if string(again) != string(data) {
		t.Fatalf("not stable:\n%s\n%s", data, again)
	}
	if back.RequestKey() != "11:"+strings.Repeat("d", 40) {
		t.Fatalf("request key %q", back.RequestKey())
	}
}

// Every rule of Decode names the JSON path of what is wrong.
func TestDecodeRefusesWithPath(t *testing.T) {
	plan := strings.Repeat("e", 64)
	cases := []struct {
		name, path, code string
		edit             func(m map[string]any)
	}{
		{"unknown field", "/extra", problems.UnknownField, func(m map[string]any) { m["extra"] = true }},
		{"missing field", "/claim", problems.MissingField, func(m map[string]any) { delete(m, "claim") }},
		{"bad run id", "/run_id", problems.InvalidValue, func(m map[string]any) { m["run_id"] = "xyz" }},
		{"key of another loop", "/automation_key", problems.Mismatch, func(m map[string]any) { m["pr_number"] = int64(8) }},
		{"deadline", "/request_deadline", problems.Inconsistent, func(m map[string]any) { m["request_deadline"] = "2026-03-02T10:31:00Z" }},
		{"rounds without keys", "/completed_request_keys", problems.Inconsistent, func(m map[string]any) { m["fix_rounds"] = int64(1) }},
		{"mode", "/mode", problems.InvalidValue, func(m map[string]any) { m["mode"] = "report-only" }},
		{"hash without plan", "/remediation_plan_hash", problems.Inconsistent, func(m map[string]any) { m["remediation_plan_hash"] = plan }},
		{"approval without plan", "/remediation_approval", problems.Mismatch, func(m map[string]any) {
			m["remediation_approval"] = map[string]any{"approved_at": "2026-03-02T10:00:00Z", "approver_id": int64(1), "plan_hash": plan}
		}},
		{"bad request head", "/request_head_sha", problems.InvalidValue, func(m map[string]any) { m["request_head_sha"] = "HEAD" }},
		{"empty fixer arg", "/fixer/0", problems.InvalidValue, func(m map[string]any) { m["fixer"] = []any{""} }},
	}
	base, err := checkpoint.Marshal(valid())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, _ := canon.Parse(base)
			m := raw.(map[string]any)
			tc.edit(m)
			data, err := canon.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = checkpoint.Decode(data)
			var ce *checkpoint.Error
			if !errors.As(err, &ce) {
				t.Fatalf("accepted or wrong error: %v", err)
			}
			for _, p := range ce.Problems {
				if p.Path == tc.path && p.Code == tc.code {
					return
				}
			}
			t.Fatalf("no %s at %s in %v", tc.code, tc.path, ce.Problems)
		})
	}
}

// A stored plan must hash to its stored hash; a tampered plan is refused.
func TestDecodeChecksPlanHash(t *testing.T) {
	c := valid()
	m := schema.FinalizationManifest{Kind: "finalization", Version: 1, PolicySchemaVersion: policy.SchemaVersion, RunID: c.RunID,
		Repository: c.Repository, PRNumber: 7, RemoteName: "origin", BaseBranch: "main", HeadBranch: "feature",
		BaseSHA: strings.Repeat("b", 40), CurrentHeadSHA: c.RequestHeadSHA, RequestKey: c.RequestKey(),
		EligibleThreads: []schema.Thread{}, Responses: []schema.Response{}, Operations: []string{policy.OpDeleteAutomation},
		Gates: schema.Gates{Approvals: "pass", BranchProtection: "pass", Checks: "pass", Mergeability: "pass"}}
	h, err := canon.HashValue(m)
	if err != nil {
		t.Fatal(err)
	}
	c.FinalizationManifest, c.FinalizationPlanHash = &m, &h
	if _, err := checkpoint.Marshal(c); err != nil {
		t.Fatalf("a consistent plan was refused: %v", err)
	}
	wrong := strings.Repeat("0", 64)
	c.FinalizationPlanHash = &wrong
	if _, err := checkpoint.Marshal(c); err == nil || !strings.Contains(err.Error(), "/finalization_plan_hash") {
		t.Fatalf("a plan with the wrong hash: %v", err)
	}
}
