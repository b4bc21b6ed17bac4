package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
)

// TestConsistencyRules breaks one consistency rule of a valid state; each
// is its own reason and the only inconsistency listed.
func TestConsistencyRules(t *testing.T) {
	automation := func(st map[string]any) map[string]any { return ruletest.Obj(st, "automations", 0) }
	for _, tc := range []struct {
		name   string
		sc     fixture.StateScenario
		mutate func(st map[string]any)
		action string
		reason string
	}{
		{"automation-missing", fixture.StateAwaiting, func(st map[string]any) { st["automations"] = []any{} }, "halt", "automation-missing"},
		{"automation-other-key-ignored-then-missing", fixture.StateAwaiting, func(st map[string]any) {
			automation(st)["key"] = "github-codex-pr-loop/octo-org/hello-world/pull/7/run/" + fixture.StateRunID
			automation(st)["id"] = "another"
		}, "halt", "automation-missing"},
		{"automation-key-and-id-split", fixture.StateAwaiting, func(st map[string]any) {
			other := copyObj(automation(st))
			automation(st)["id"] = "another"
			other["key"] = "github-codex-pr-loop/other"
			st["automations"] = append(list(st, "automations"), other)
		}, "halt", "automation-mismatch"},
		{"automation-id-with-other-key", fixture.StateAwaiting, func(st map[string]any) {
			automation(st)["key"] = "github-codex-pr-loop/other"
		}, "halt", "automation-mismatch"},
		{"automation-exactly-one", fixture.StateAwaiting, func(st map[string]any) {
			st["automations"] = append(list(st, "automations"), copyObj(automation(st)))
		}, "halt", "automation-duplicate"},
		{"automation-key-reused", fixture.StateAwaiting, func(st map[string]any) {
			other := copyObj(automation(st))
			other["id"] = "another"
			st["automations"] = append(list(st, "automations"), other)
		}, "halt", "automation-duplicate"},
		{"automation-policy-rrule", fixture.StateAwaiting, func(st map[string]any) {
			automation(st)["rrule"] = "FREQ=MINUTELY;INTERVAL=1"
		}, "halt", "automation-mismatch"},
		{"automation-paused", fixture.StateAwaiting, func(st map[string]any) {
			automation(st)["status"] = "PAUSED"
		}, "halt", "paused-bootstrap"},
		{"pr-closed", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["state"] = "closed" }, "halt", "pr-closed"},
		{"pr-merged", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["state"] = "merged" }, "halt", "pr-merged"},
		{"pr-cross-repository", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["same_repository"] = false }, "halt", "pr-cross-repository"},
		{"branch-drift-base", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["base_branch"] = "develop" }, "halt", "branch-drift"},
		{"branch-drift-head", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["head_branch"] = "other" }, "halt", "branch-drift"},
		{"head-drift-pr", fixture.StateAwaiting, func(st map[string]any) { ruletest.Obj(st, "pr")["head_sha"] = fixture.StateOldHeadSHA }, "halt", "head-drift"},
		{"head-drift-current", fixture.StateAwaiting, func(st map[string]any) { st["current_head_sha"] = fixture.StateOldHeadSHA }, "halt", "head-drift"},
		{"head-drift-request", fixture.StateAwaiting, func(st map[string]any) { st["request_head_sha"] = fixture.StateOldHeadSHA }, "halt", "head-drift"},
		{"base-drift-remediation-sha", fixture.StateRemediationApproved, func(st map[string]any) {
			st["base_sha"] = "5555555555555555555555555555555555555555"
		}, "halt", "base-drift"},
		{"base-drift-finalization-sha", fixture.StateFinalizationApproved, func(st map[string]any) {
			st["base_sha"] = "5555555555555555555555555555555555555555"
		}, "halt", "base-drift"},
		{"base-drift-branch", fixture.StateRemediationApproved, func(st map[string]any) {
			ruletest.Obj(st, "remediation_manifest")["base_branch"] = "develop"
		}, "halt", "base-drift"},
		{"remote-drift-remediation", fixture.StateRemediationApproved, func(st map[string]any) { st["remote_name"] = "upstream" }, "halt", "remote-drift"},
		{"remote-drift-finalization", fixture.StatePostMutation, func(st map[string]any) { st["remote_name"] = "upstream" }, "halt", "remote-drift"},
		{"claim-live", fixture.StateRemediationApproved, func(st map[string]any) {
			st["claim"] = claim(st, "2026-03-01T10:02:01Z")
		}, "wait", "claimed"},
		{"claim-expired-at-expiry", fixture.StateRemediationApproved, func(st map[string]any) {
			st["claim"] = claim(st, "2026-03-01T10:02:00Z") // expires exactly at observed_at
		}, "halt", "stale-claim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := state(tc.sc)
			tc.mutate(st)
			fixture.RecomputeState(st)
			r := eval(t, st)
			wantAction(t, r, tc.action, tc.reason)
			if !equalStrings(r.Inconsistencies, []string{tc.reason}) {
				t.Fatalf("inconsistencies %v, want [%s]", r.Inconsistencies, tc.reason)
			}
		})
	}
}

// TestConsistencyCollectsAll: every finding is listed, in protocol order,
// and the action follows the first.
func TestConsistencyCollectsAll(t *testing.T) {
	st := state(fixture.StateRemediationApproved)
	st["automations"] = []any{}
	ruletest.Obj(st, "pr")["state"] = "closed"
	ruletest.Obj(st, "pr")["same_repository"] = false
	ruletest.Obj(st, "pr")["head_branch"] = "other"
	ruletest.Obj(st, "pr")["head_sha"] = fixture.StateOldHeadSHA
	st["base_sha"] = "5555555555555555555555555555555555555555"
	st["remote_name"] = "upstream"
	st["claim"] = claim(st, "2026-03-01T10:11:00Z")
	fixture.RecomputeState(st)
	r := eval(t, st)
	wantAction(t, r, "halt", "automation-missing")
	want := []string{"automation-missing", "pr-closed", "pr-cross-repository", "branch-drift", "head-drift",
		"base-drift", "remote-drift", "claimed"}
	if !equalStrings(r.Inconsistencies, want) {
		t.Fatalf("inconsistencies %v, want %v", r.Inconsistencies, want)
	}
	// A live claim alone waits; with anything else, the state halts.
	st = state(fixture.StateClaimed)
	ruletest.Obj(st, "pr")["state"] = "merged"
	r = eval(t, st)
	wantAction(t, r, "halt", "pr-merged")
	if !equalStrings(r.Inconsistencies, []string{"pr-merged", "claimed"}) {
		t.Fatalf("inconsistencies %v", r.Inconsistencies)
	}
}

// TestBootstrapOnlyPaused: the fresh bootstrap state has exactly one
// inconsistency, the one the prompt validator accepts.
func TestBootstrapOnlyPaused(t *testing.T) {
	r := eval(t, state(fixture.StateBootstrap))
	if !equalStrings(r.Inconsistencies, []string{"paused-bootstrap"}) {
		t.Fatalf("inconsistencies %v", r.Inconsistencies)
	}
	// A PAUSED stub on the wrong schedule is a mismatch, not the bootstrap.
	st := state(fixture.StateBootstrap)
	ruletest.Obj(st, "automations", 0)["rrule"] = "FREQ=HOURLY"
	wantAction(t, eval(t, st), "halt", "automation-mismatch")
}

func claim(st map[string]any, claimedAt string) map[string]any {
	return map[string]any{
		"claimed_at":  claimedAt,
		"expires_at":  claimedAt,
		"holder":      "other@host",
		"plan_hash":   st["remediation_plan_hash"],
		"request_key": policy.RequestKey(fixture.StateRequestID, fixture.StateHeadSHA),
	}
}
