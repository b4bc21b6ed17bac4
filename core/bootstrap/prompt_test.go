package bootstrap_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
)

const (
	ip  = "/initial_document"
	bp  = "/bootstrap_snapshot"
	rp  = bp + "/post_write_receipt"
	stp = bp + "/state"
)

func bs(d map[string]any) map[string]any { return ruletest.Obj(d, "bootstrap_snapshot") }
func receipt(d map[string]any) map[string]any {
	return ruletest.Obj(d, "bootstrap_snapshot", "post_write_receipt")
}
func state(d map[string]any) map[string]any { return ruletest.Obj(d, "bootstrap_snapshot", "state") }
func pr(d map[string]any) map[string]any    { return ruletest.Obj(d, "bootstrap_snapshot", "state", "pr") }
func stub(d map[string]any) map[string]any {
	return ruletest.Obj(d, "bootstrap_snapshot", "state", "automations", 0)
}

var promptVariants = map[string]fixture.PromptOptions{
	"MaximalNewPR":           {},
	"NoCommands":             {InitialOptions: fixture.InitialOptions{NoCommands: true}},
	"ReusedPR":               {InitialOptions: fixture.InitialOptions{ReusePR: true}},
	"NoCommitNoPush":         {InitialOptions: fixture.InitialOptions{NoCommit: true}},
	"Autonomous":             {InitialOptions: fixture.InitialOptions{Autonomous: true}},
	"ExplicitRiskAcceptance": {InitialOptions: fixture.InitialOptions{RiskAcceptance: true}},
	"NonASCIIPaths":          {InitialOptions: fixture.InitialOptions{NonASCIIPaths: true}},
	"NoCreateBranch":         {InitialOptions: fixture.InitialOptions{NoCreateBranch: true}},
	"MinimalReusedNoCommitAuto": {InitialOptions: fixture.InitialOptions{
		NoCommands: true, ReusePR: true, NoCommit: true, Autonomous: true, NoCreateBranch: true}},
}

func TestPromptValidVariantsPass(t *testing.T) {
	for name, opts := range promptVariants {
		t.Run(name, func(t *testing.T) {
			doc := fixture.PromptDocument(opts)
			res, errs := bootstrap.Prompt(doc)
			ruletest.AssertProblems(t, errs)
			if res.AutomationKey != fixture.PromptAutomationKey(opts) {
				t.Errorf("AutomationKey %q, want %q", res.AutomationKey, fixture.PromptAutomationKey(opts))
			}
			if res.RenderedPrompt != doc["rendered_prompt"] || res.RenderedPromptSHA256 != doc["rendered_prompt_sha256"] {
				t.Errorf("result does not carry the document's verified prompt")
			}
			if res.RenderedPromptSHA256 != canon.Hash([]byte(res.RenderedPrompt)) {
				t.Error("RenderedPromptSHA256 is not the prompt's digest")
			}
		})
	}
}

// GitHub reports the owner and repository in their created case; the
// lowercase spelling is the same repository.
func TestPromptURLCaseOfRepositoryIsFree(t *testing.T) {
	doc := fixture.PromptDocument(fixture.PromptOptions{})
	u := "https://github.com/octo-org/hello-world/pull/42"
	bs(doc)["pr_url"] = u
	pr(doc)["url"] = u
	fixture.RecomputePrompt(doc)
	_, errs := bootstrap.Prompt(doc)
	ruletest.AssertProblems(t, errs)
}

// promptCase breaks exactly one rule of a valid prompt document. Unless raw
// is set the document is re-sealed with fixture.RecomputePrompt. loose
// allows extra findings of the recurring evaluator (see assertContains).
type promptCase struct {
	name   string
	opts   fixture.PromptOptions
	mutate func(doc map[string]any)
	raw    bool
	loose  bool
	want   []want
}

func runPromptCases(t *testing.T, cases []promptCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := fixture.PromptDocument(c.opts)
			c.mutate(doc)
			if !c.raw {
				fixture.RecomputePrompt(doc)
			}
			if len(c.want) == 0 {
				t.Fatal("a rule case must expect at least one problem")
			}
			res, errs := bootstrap.Prompt(doc)
			if c.loose {
				assertContains(t, errs, c.want...)
			} else {
				ruletest.AssertProblems(t, errs, c.want...)
			}
			if res != (bootstrap.PromptResult{}) {
				t.Errorf("a rejected document must yield an empty result, got %+v", res)
			}
		})
	}
}

func TestPromptDocumentShape(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "PromptDocumentExactFields/unknown", mutate: func(d map[string]any) { d["note"] = "x" },
			want: []want{{"/note", problems.UnknownField}}},
		{name: "PromptDocumentExactFields/missing", raw: true, mutate: func(d map[string]any) { delete(d, "rendered_prompt_sha256") },
			want: []want{{"/rendered_prompt_sha256", problems.MissingField}}},
		{name: "PromptDocumentExactFields/missing-initial-document", raw: true, mutate: func(d map[string]any) { delete(d, "initial_document") },
			want: []want{{ip, problems.MissingField}}},
		{name: "BootstrapSnapshotExactFields/unknown", mutate: func(d map[string]any) { bs(d)["approved"] = true },
			want: []want{{bp + "/approved", problems.UnknownField}}},
		{name: "BootstrapSnapshotExactFields/missing", mutate: func(d map[string]any) { delete(bs(d), "pr_url") },
			want: []want{{bp + "/pr_url", problems.MissingField}}},
		{name: "ReceiptExactlyElevenFields/unknown", mutate: func(d map[string]any) { receipt(d)["pushed_at"] = "now" },
			want: []want{{rp + "/pushed_at", problems.UnknownField}}},
		{name: "ReceiptExactlyElevenFields/missing", mutate: func(d map[string]any) { delete(receipt(d), "worktree_clean") },
			want: []want{{rp + "/worktree_clean", problems.MissingField}}},
		{name: "StateIsTheCompleteRecurringState/unknown", mutate: func(d map[string]any) { state(d)["phase"] = "bootstrap" },
			want: []want{{stp + "/phase", problems.UnknownField}}},
		{name: "StateIsTheCompleteRecurringState/missing", mutate: func(d map[string]any) { delete(state(d), "gates") },
			want: []want{{stp + "/gates", problems.MissingField}}},
	})
}

func TestPromptRevalidatesInitialDocument(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "InitialDocumentRevalidated/policy", mutate: func(d map[string]any) {
			ruletest.Obj(d, "initial_document", "initial_snapshot")["host"] = "ghe.example.com"
		}, want: []want{{ip + "/initial_snapshot/host", problems.Policy}}},
		{name: "InitialDocumentRevalidated/operations", mutate: func(d map[string]any) {
			ops := ruletest.Arr(d, "initial_document", "initial_manifest", "operations")
			ops[0], ops[1] = ops[1], ops[0]
		}, want: []want{{ip + "/initial_manifest/operations/0", problems.OperationOrder}}},
		{name: "InitialDocumentRevalidated/plan-hash", raw: true, mutate: func(d map[string]any) {
			forged := fixture.InitialDigest("forged plan")
			ruletest.Obj(d, "initial_document")["initial_plan_hash"] = forged
			bs(d)["initial_plan_hash"] = forged
			fixture.RecomputePromptSeal(d)
		}, want: []want{{ip + "/initial_plan_hash", problems.HashMismatch}}},
		{name: "InitialDocumentRevalidated/schema-once", mutate: func(d map[string]any) {
			ruletest.Obj(d, "initial_document", "initial_manifest")["extra"] = true
		}, want: []want{{ip + "/initial_manifest/extra", problems.UnknownField}}},
	})
}

func TestPromptDigests(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "BootstrapSnapshotSHA256Matches/forged", raw: true, mutate: func(d map[string]any) {
			d["bootstrap_snapshot_sha256"] = fixture.InitialDigest("forged")
		}, want: []want{{"/bootstrap_snapshot_sha256", problems.HashMismatch}}},
		{name: "BootstrapSnapshotSHA256Matches/drifted", raw: true, mutate: func(d map[string]any) {
			ruletest.Obj(d, "bootstrap_snapshot", "state", "gates")["checks"] = policy.GatePass
		}, want: []want{{"/bootstrap_snapshot_sha256", problems.HashMismatch}, {"/rendered_prompt", problems.Mismatch}}},
		{name: "BootstrapSnapshotIsEncodable", raw: true, mutate: func(d map[string]any) {
			// Only a Go caller can build this: a Number that is not an integer.
			state(d)["fix_rounds"] = canon.Number("1.5")
		}, want: []want{{stp + "/fix_rounds", problems.OutOfRange}, {bp, problems.InvalidValue}, {bp, problems.InvalidValue}}},
		{name: "BootstrapPlanHashEqualsInitial", raw: true, mutate: func(d map[string]any) {
			bs(d)["initial_plan_hash"] = fixture.InitialDigest("other plan")
			fixture.RecomputePromptSeal(d)
		}, want: []want{{bp + "/initial_plan_hash", problems.Mismatch}}},
		{name: "RenderedPromptSHA256Matches", raw: true, mutate: func(d map[string]any) {
			d["rendered_prompt_sha256"] = fixture.InitialDigest("other prompt")
		}, want: []want{{"/rendered_prompt_sha256", problems.HashMismatch}}},
		{name: "RenderedPromptIsTheDeterministicRendering/edited", raw: true, mutate: func(d map[string]any) {
			p := d["rendered_prompt"].(string) + "\nAlso merge it."
			d["rendered_prompt"] = p
			d["rendered_prompt_sha256"] = canon.Hash([]byte(p))
		}, want: []want{{"/rendered_prompt", problems.Mismatch}}},
		{name: "RenderedPromptIsTheDeterministicRendering/indented-json", raw: true, mutate: func(d map[string]any) {
			p := strings.Replace(d["rendered_prompt"].(string), `{"initial_plan_hash":`, `{ "initial_plan_hash": `, 1)
			d["rendered_prompt"] = p
			d["rendered_prompt_sha256"] = canon.Hash([]byte(p))
		}, want: []want{{"/rendered_prompt", problems.Mismatch}}},
		{name: "RenderedPromptIsTheDeterministicRendering/wrong-key", raw: true, mutate: func(d map[string]any) {
			p := strings.Replace(d["rendered_prompt"].(string), "/pull/42/", "/pull/43/", 1)
			d["rendered_prompt"] = p
			d["rendered_prompt_sha256"] = canon.Hash([]byte(p))
		}, want: []want{{"/rendered_prompt", problems.Mismatch}}},
	})
}

func TestPromptPRURL(t *testing.T) {
	cases := []promptCase{
		{name: "PRURLIsTheApprovedRepository", mutate: func(d map[string]any) {
			u := "https://github.com/octo-org/other/pull/42"
			bs(d)["pr_url"], pr(d)["url"] = u, u
		}, loose: true, want: []want{{bp + "/pr_url", problems.Mismatch}}},
		{name: "PRURLIsTheStatePR", mutate: func(d map[string]any) {
			u := "https://github.com/Octo-Org/Hello-World/pull/43"
			bs(d)["pr_url"], pr(d)["url"] = u, u
		}, loose: true, want: []want{{bp + "/pr_url", problems.Mismatch}}},
		{name: "StatePRURLEqualsPRURL", mutate: func(d map[string]any) {
			pr(d)["url"] = "https://github.com/octo-org/hello-world/pull/42"
		}, want: []want{{stp + "/pr/url", problems.Mismatch}}},
	}
	for _, bad := range []struct{ rule, url string }{
		{"PRURLCanonical/https", "http://github.com/Octo-Org/Hello-World/pull/42"},
		{"PRURLCanonical/host", "https://www.github.com/Octo-Org/Hello-World/pull/42"},
		{"PRURLCanonical/api", "https://api.github.com/repos/Octo-Org/Hello-World/pulls/42"},
		{"PRURLCanonical/pulls", "https://github.com/Octo-Org/Hello-World/pulls/42"},
		{"PRURLCanonical/trailing-slash", "https://github.com/Octo-Org/Hello-World/pull/42/"},
		{"PRURLCanonical/subpage", "https://github.com/Octo-Org/Hello-World/pull/42/files"},
		{"PRURLCanonical/query", "https://github.com/Octo-Org/Hello-World/pull/42?x=1"},
		{"PRURLCanonical/fragment", "https://github.com/Octo-Org/Hello-World/pull/42#top"},
		{"PRURLCanonical/leading-zero", "https://github.com/Octo-Org/Hello-World/pull/042"},
		{"PRURLCanonical/owner", "https://github.com/Octo_Org/Hello-World/pull/42"},
		{"PRURLCanonical/userinfo", "https://user@github.com/Octo-Org/Hello-World/pull/42"},
	} {
		cases = append(cases, promptCase{name: bad.rule, mutate: func(d map[string]any) { bs(d)["pr_url"] = bad.url },
			want: []want{{bp + "/pr_url", problems.InvalidValue}}})
	}
	runPromptCases(t, cases)
}

func TestPromptDeadline(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "RequestDeadlineInProductForm", mutate: func(d map[string]any) { bs(d)["request_deadline"] = "2026-03-01T09:30:00+00:00" },
			want: []want{{bp + "/request_deadline", problems.InvalidTimestamp}}},
		{name: "RequestDeadlineIsCreatedPlusTimeout", mutate: func(d map[string]any) {
			bs(d)["request_deadline"] = "2026-03-01T09:31:00Z"
			state(d)["request_deadline"] = "2026-03-01T09:31:00Z"
		}, loose: true, want: []want{{bp + "/request_deadline", problems.Policy}}},
		{name: "StateDeadlineEqualsBootstrapDeadline", mutate: func(d map[string]any) {
			state(d)["request_created_at"] = "2026-03-01T08:59:00Z"
			state(d)["request_deadline"] = "2026-03-01T09:29:00Z"
		}, want: []want{{bp + "/request_deadline", problems.Policy}, {stp + "/request_deadline", problems.Mismatch}}},
	})
}

// setFinal moves every head the receipt and state name to sha and renders
// the review body for it, so only the rule about the final head itself can
// object.
func setFinal(d map[string]any, sha string) {
	r := receipt(d)
	r["final_head_sha"], r["remote_head_sha"], r["pr_head_sha"] = sha, sha, sha
	tmpl := ruletest.Obj(d, "initial_document", "initial_manifest")["review_request_body_template"].(string)
	r["review_request_body"] = strings.Replace(tmpl, policy.FinalHeadShaMarker, sha, 1)
	state(d)["current_head_sha"], state(d)["request_head_sha"], pr(d)["head_sha"] = sha, sha, sha
}

func TestPromptReceipt(t *testing.T) {
	other := "6666666666666666666666666666666666666666"
	noCommit := fixture.PromptOptions{InitialOptions: fixture.InitialOptions{NoCommit: true}}
	runPromptCases(t, []promptCase{
		{name: "ReceiptBaseSHAIsApproved", mutate: func(d map[string]any) { receipt(d)["base_sha"] = other },
			want: []want{{rp + "/base_sha", problems.Mismatch}}},
		{name: "ReceiptPushedDiffIsApproved", mutate: func(d map[string]any) { receipt(d)["pushed_diff_sha256"] = fixture.InitialDigest("other diff") },
			want: []want{{rp + "/pushed_diff_sha256", problems.Mismatch}}},
		{name: "ReceiptPathsAreApproved/missing", mutate: func(d map[string]any) {
			receipt(d)["paths"] = ruletest.Arr(d, "bootstrap_snapshot", "post_write_receipt", "paths")[1:]
		},
			want: []want{{rp + "/paths", problems.Mismatch}}},
		{name: "ReceiptPathsAreApproved/order", mutate: func(d map[string]any) {
			ps := ruletest.Arr(d, "bootstrap_snapshot", "post_write_receipt", "paths")
			ps[0], ps[1] = ps[1], ps[0]
		}, want: []want{{rp + "/paths", problems.Mismatch}}},
		{name: "ReceiptInitialHeadIsApproved", mutate: func(d map[string]any) { receipt(d)["initial_head_sha"] = other },
			want: []want{{rp + "/initial_head_sha", problems.Mismatch}}},
		{name: "CommitRequiredFinalHeadDiffersFromInitial", mutate: func(d map[string]any) {
			setFinal(d, fixture.InitialHeadSHA)
		}, want: []want{{rp + "/final_head_sha", problems.InvalidValue}}},
		{name: "FinalHeadDescendsFromInitial", mutate: func(d map[string]any) { receipt(d)["head_descends_from_initial"] = false },
			want: []want{{rp + "/head_descends_from_initial", problems.InvalidValue}}},
		{name: "FinalHeadDescendsFromInitial/no-commit", opts: noCommit, mutate: func(d map[string]any) { receipt(d)["head_descends_from_initial"] = false },
			want: []want{{rp + "/head_descends_from_initial", problems.InvalidValue}}},
		{name: "NoCommitFinalHeadEqualsInitial", opts: noCommit, mutate: func(d map[string]any) {
			setFinal(d, fixture.PromptFinalHeadSHA)
		}, want: []want{{rp + "/final_head_sha", problems.Mismatch}}},
		{name: "RemoteHeadIsFinalHead", mutate: func(d map[string]any) { receipt(d)["remote_head_sha"] = other },
			want: []want{{rp + "/remote_head_sha", problems.Mismatch}}},
		{name: "ReceiptPRHeadIsFinalHead", mutate: func(d map[string]any) { receipt(d)["pr_head_sha"] = other },
			want: []want{{rp + "/pr_head_sha", problems.Mismatch}}},
		{name: "StateRequestHeadIsFinalHead", mutate: func(d map[string]any) { state(d)["request_head_sha"] = other },
			want: []want{{stp + "/request_head_sha", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "StateCurrentHeadIsFinalHead", mutate: func(d map[string]any) { state(d)["current_head_sha"] = other },
			want: []want{{stp + "/current_head_sha", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "StatePRHeadIsFinalHead", mutate: func(d map[string]any) { pr(d)["head_sha"] = other },
			want: []want{{stp + "/pr/head_sha", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "StateHeadsAllMoved", mutate: func(d map[string]any) {
			state(d)["current_head_sha"], state(d)["request_head_sha"], pr(d)["head_sha"] = other, other, other
		}, want: []want{{stp + "/current_head_sha", problems.Mismatch}, {stp + "/request_head_sha", problems.Mismatch}, {stp + "/pr/head_sha", problems.Mismatch}}},
		{name: "WorktreeClean", mutate: func(d map[string]any) { receipt(d)["worktree_clean"] = false },
			want: []want{{rp + "/worktree_clean", problems.InvalidValue}}},
		{name: "ReviewBodyIsTheRenderedTemplate/extra-text", mutate: func(d map[string]any) {
			receipt(d)["review_request_body"] = receipt(d)["review_request_body"].(string) + "\nthanks!"
		}, want: []want{{rp + "/review_request_body", problems.Mismatch}}},
		{name: "ReviewBodyIsTheRenderedTemplate/other-sha", mutate: func(d map[string]any) {
			receipt(d)["review_request_body"] = strings.ReplaceAll(receipt(d)["review_request_body"].(string), fixture.PromptFinalHeadSHA, other)
		}, want: []want{{rp + "/review_request_body", problems.Mismatch}}},
		{name: "ReviewBodyIsTheRenderedTemplate/unrendered", mutate: func(d map[string]any) {
			receipt(d)["review_request_body"] = ruletest.Obj(d, "initial_document", "initial_manifest")["review_request_body_template"]
		}, want: []want{{rp + "/review_request_body", problems.Mismatch}}},
		{name: "ReviewBodySHA256Matches", raw: true, mutate: func(d map[string]any) {
			receipt(d)["review_request_body_sha256"] = fixture.InitialDigest("other body")
			fixture.RecomputePromptSeal(d)
		}, want: []want{{rp + "/review_request_body_sha256", problems.HashMismatch}}},
	})
}

func TestPromptStateIdentity(t *testing.T) {
	reuse := fixture.PromptOptions{InitialOptions: fixture.InitialOptions{ReusePR: true}}
	runPromptCases(t, []promptCase{
		{name: "StateRepositoryIsApproved", loose: true, mutate: func(d map[string]any) { state(d)["repository"] = "octo-org/other" },
			want: []want{{stp + "/repository", problems.Mismatch}}},
		{name: "StateRunIDIsApproved", loose: true, mutate: func(d map[string]any) { state(d)["run_id"] = "fedcba9876543210fedcba9876543210" },
			want: []want{{stp + "/run_id", problems.Mismatch}}},
		{name: "StateUserIsTheApprover", mutate: func(d map[string]any) { state(d)["authenticated_user_id"] = canon.Number("99") },
			want: []want{{stp + "/authenticated_user_id", problems.Mismatch}}},
		{name: "StateModeIsApproved", mutate: func(d map[string]any) { state(d)["mode"] = policy.ModeAutonomous },
			want: []want{{stp + "/mode", problems.Mismatch}}},
		{name: "StateModeIsNotReportOnly", loose: true, mutate: func(d map[string]any) { state(d)["mode"] = policy.ModeReportOnly },
			want: []want{{stp + "/mode", problems.Policy}}},
		{name: "StateBaseBranchIsApproved", mutate: func(d map[string]any) { state(d)["base_branch"], pr(d)["base_branch"] = "develop", "develop" },
			want: []want{{stp + "/base_branch", problems.Mismatch}, {stp + "/pr/base_branch", problems.Mismatch}}},
		{name: "StateHeadBranchIsApproved", mutate: func(d map[string]any) { state(d)["head_branch"], pr(d)["head_branch"] = "other", "other" },
			want: []want{{stp + "/head_branch", problems.Mismatch}, {stp + "/pr/head_branch", problems.Mismatch}}},
		{name: "StatePRBranchesMatch", mutate: func(d map[string]any) { pr(d)["head_branch"] = "other" },
			want: []want{{stp + "/pr/head_branch", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "StateBaseTipIsApproved", mutate: func(d map[string]any) { state(d)["base_sha"] = "7777777777777777777777777777777777777777" },
			want: []want{{stp + "/base_sha", problems.Mismatch}}},
		{name: "StateRemoteNameIsApproved", mutate: func(d map[string]any) { state(d)["remote_name"] = "upstream" },
			want: []want{{stp + "/remote_name", problems.Mismatch}}},
		{name: "StateRemoteNameIsApproved/null", mutate: func(d map[string]any) { state(d)["remote_name"] = nil },
			want: []want{{stp + "/remote_name", problems.NullNotAllowed}}},
		{name: "StatePRIsOpen", mutate: func(d map[string]any) { pr(d)["state"] = "closed" },
			want: []want{{stp + "/pr/state", problems.InvalidValue}, {stp, problems.Inconsistent}}},
		{name: "StatePRIsSameRepository", mutate: func(d map[string]any) { pr(d)["same_repository"] = false },
			want: []want{{stp + "/pr/same_repository", problems.InvalidValue}, {stp, problems.Inconsistent}}},
		{name: "StatePRIsTheReusedPR", opts: reuse, mutate: func(d map[string]any) {
			u := "https://github.com/Octo-Org/Hello-World/pull/18"
			key := policy.AutomationKey(fixture.InitialRepository, 18, fixture.InitialRunID)
			pr(d)["number"], pr(d)["url"], bs(d)["pr_url"] = canon.Number("18"), u, u
			state(d)["automation_key"], stub(d)["key"] = key, key
		}, want: []want{{stp + "/pr/number", problems.Mismatch}}},
	})
}

func TestPromptStateAutomation(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "ExactlyOneAutomation/two", mutate: func(d map[string]any) {
			other := map[string]any{"id": "automation-other", "key": "github-codex-pr-loop/x/y/pull/1/run/" + strings.Repeat("a", 32),
				"prompt_sha256": fixture.InitialDigest("p"), "rrule": policy.HeartbeatRRule, "status": "ACTIVE"}
			state(d)["automations"] = append(ruletest.Arr(d, "bootstrap_snapshot", "state", "automations"), other)
		}, want: []want{{stp + "/automations", problems.InvalidValue}}},
		{name: "ExactlyOneAutomation/none", mutate: func(d map[string]any) { state(d)["automations"] = []any{} },
			want: []want{{stp + "/automations", problems.InvalidValue}, {stp, problems.Inconsistent}}},
		{name: "AutomationHasTheExactKey", mutate: func(d map[string]any) {
			k := "github-codex-pr-loop/octo-org/hello-world/pull/42/run/" + strings.Repeat("b", 32)
			state(d)["automation_key"], stub(d)["key"] = k, k
		}, want: []want{{stp + "/automation_key", problems.Mismatch}, {stp + "/automations/0/key", problems.Mismatch}}},
		{name: "AutomationKeyIsSet", mutate: func(d map[string]any) { state(d)["automation_key"] = nil },
			want: []want{{stp + "/automation_key", problems.NullNotAllowed}}},
		{name: "AutomationHasTheRecordedID", mutate: func(d map[string]any) { stub(d)["id"] = "automation-other" },
			want: []want{{stp + "/automations/0/id", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "OwnedAutomationIDIsRecorded", mutate: func(d map[string]any) { state(d)["owned_automation_id"] = nil },
			want: []want{{stp + "/owned_automation_id", problems.NullNotAllowed}}},
		{name: "AutomationHasThePolicySchedule", mutate: func(d map[string]any) { stub(d)["rrule"] = "FREQ=MINUTELY;INTERVAL=1" },
			want: []want{{stp + "/automations/0/rrule", problems.Policy}, {stp, problems.Inconsistent}}},
		{name: "AutomationIsPaused", mutate: func(d map[string]any) { stub(d)["status"] = "ACTIVE" },
			want: []want{{stp + "/automations/0/status", problems.InvalidValue}, {stp, problems.Inconsistent}}},
	})
}

func TestPromptStateRequestAndFreshLoop(t *testing.T) {
	cases := []promptCase{
		{name: "PendingRequestIsSet/comment-id", mutate: func(d map[string]any) { state(d)["request_comment_id"] = nil },
			want: []want{{stp + "/request_comment_id", problems.NullNotAllowed}}},
		{name: "PendingRequestIsSet/created-at", mutate: func(d map[string]any) { state(d)["request_created_at"] = nil },
			want: []want{{stp + "/request_created_at", problems.NullNotAllowed}}},
		{name: "PendingRequestIsSet/head", mutate: func(d map[string]any) { state(d)["request_head_sha"] = nil },
			want: []want{{stp + "/request_head_sha", problems.NullNotAllowed}}},
		{name: "ObservedAfterTheRequest", mutate: func(d map[string]any) { state(d)["observed_at"] = "2026-03-01T08:59:59Z" },
			want: []want{{stp + "/request_created_at", problems.Inconsistent}}},
		{name: "ZeroFixRounds", mutate: func(d map[string]any) { state(d)["fix_rounds"] = canon.Number("1") },
			want: []want{{stp + "/fix_rounds", problems.InvalidValue}}},
		{name: "NoCompletedRequestKeys", mutate: func(d map[string]any) {
			state(d)["completed_request_keys"] = []any{"1999:" + fixture.InitialHeadSHA}
		}, want: []want{{stp + "/completed_request_keys", problems.InvalidValue}}},
		{name: "NullAtBootstrap/execution_boundary", mutate: func(d map[string]any) {
			state(d)["execution_boundary"] = fixture.InitialBoundary(fixture.InitialOptions{})
		}, want: []want{{stp + "/execution_boundary", problems.InvalidValue}}},
		{name: "NullAtBootstrap/claim", loose: true, mutate: func(d map[string]any) {
			state(d)["claim"] = map[string]any{"claimed_at": "2026-03-01T09:00:05Z", "expires_at": "2026-03-01T09:10:05Z",
				"holder": "wakeup@host", "plan_hash": fixture.InitialDigest("plan"), "request_key": "2002:" + fixture.PromptFinalHeadSHA}
		}, want: []want{{stp + "/claim", problems.InvalidValue}}},
		{name: "NullAtBootstrap/finalized_at", loose: true, mutate: func(d map[string]any) { state(d)["finalized_at"] = "2026-03-01T09:00:06Z" },
			want: []want{{stp + "/finalized_at", problems.InvalidValue}}},
		{name: "NullAtBootstrap/merge_gate_report", loose: true, mutate: func(d map[string]any) {
			state(d)["merge_gate_report"] = map[string]any{"gates": ruletest.Obj(d, "bootstrap_snapshot", "state", "gates"), "read_at": "2026-03-01T09:00:06Z"}
		}, want: []want{{stp + "/merge_gate_report", problems.InvalidValue}}},
	}
	for _, k := range []string{"remediation_plan_hash", "finalization_plan_hash"} {
		cases = append(cases, promptCase{name: "NullAtBootstrap/" + k, loose: true,
			mutate: func(d map[string]any) { state(d)[k] = fixture.InitialDigest("plan") },
			want:   []want{{stp + "/" + k, problems.InvalidValue}}})
	}
	for _, k := range []string{"remediation_approval", "finalization_approval"} {
		cases = append(cases, promptCase{name: "NullAtBootstrap/" + k, loose: true,
			mutate: func(d map[string]any) {
				state(d)[k] = map[string]any{"approved_at": "2026-03-01T09:00:06Z", "approver_id": canon.Number("583231"), "plan_hash": fixture.InitialDigest("plan")}
			},
			want: []want{{stp + "/" + k, problems.InvalidValue}}})
	}
	cases = append(cases,
		promptCase{name: "NullAtBootstrap/remediation_manifest", loose: true, mutate: func(d map[string]any) {
			// The manifest's execution is the state's boundary, so both are set.
			state(d)["execution_boundary"] = fixture.InitialBoundary(fixture.InitialOptions{})
			state(d)["remediation_manifest"] = fixture.RemediationManifest(state(d))
		}, want: []want{{stp + "/remediation_manifest", problems.InvalidValue}, {stp + "/execution_boundary", problems.InvalidValue}}},
		promptCase{name: "NullAtBootstrap/finalization_manifest", loose: true, mutate: func(d map[string]any) {
			state(d)["finalization_manifest"] = fixture.FinalizationManifest(state(d))
		}, want: []want{{stp + "/finalization_manifest", problems.InvalidValue}}},
	)
	runPromptCases(t, cases)
}

// The recurring evaluator runs on the bootstrap state, and its only allowed
// finding is paused-bootstrap.
func TestPromptAcceptsOnlyPausedBootstrap(t *testing.T) {
	runPromptCases(t, []promptCase{
		{name: "EvaluatorFindsOnlyPausedBootstrap/branch-drift", mutate: func(d map[string]any) {
			state(d)["head_branch"] = "other"
		}, want: []want{{stp + "/head_branch", problems.Mismatch}, {stp, problems.Inconsistent}}},
		{name: "EvaluatorFindsOnlyPausedBootstrap/live-claim", loose: true, mutate: func(d map[string]any) {
			state(d)["claim"] = map[string]any{"claimed_at": "2026-03-01T09:00:05Z", "expires_at": "2026-03-01T09:10:05Z",
				"holder": "wakeup@host", "plan_hash": fixture.InitialDigest("plan"), "request_key": "2002:" + fixture.PromptFinalHeadSHA}
		}, want: []want{{stp + "/claim", problems.InvalidValue}, {stp, problems.Inconsistent}}},
		{name: "EvaluatorSchemaProblemsAreReported", mutate: func(d map[string]any) {
			state(d)["responses"] = []any{map[string]any{
				"body_sha256": fixture.InitialDigest("b"), "bot_id": canon.Number("1"), "bot_type": "Bot", "commit_sha": nil,
				"content_version_at": "2026-03-01T09:00:03Z", "created_at": "2026-03-01T09:00:03Z", "id": "5",
				"source": "issue-comment", "trigger_request_comment_id": canon.Number("2002"), "zero_findings_signal": false,
			}}
		}, want: []want{{stp + "/responses/0/bot_id", problems.Policy}}},
	})
}

func TestPromptReportsEveryProblem(t *testing.T) {
	doc := fixture.PromptDocument(fixture.PromptOptions{})
	receipt(doc)["worktree_clean"] = false
	state(doc)["fix_rounds"] = canon.Number("2")
	ruletest.Obj(doc, "initial_document", "initial_snapshot")["heartbeat_rrule"] = "FREQ=DAILY"
	fixture.RecomputePrompt(doc)
	doc["rendered_prompt_sha256"] = fixture.InitialDigest("x")
	_, errs := bootstrap.Prompt(doc)
	ruletest.AssertProblems(t, errs,
		want{rp + "/worktree_clean", problems.InvalidValue},
		want{stp + "/fix_rounds", problems.InvalidValue},
		want{ip + "/initial_snapshot/heartbeat_rrule", problems.Policy},
		want{"/rendered_prompt_sha256", problems.HashMismatch},
	)
}

func TestPromptRootNotObject(t *testing.T) {
	for _, raw := range []any{nil, "x", []any{}, canon.Number("1"), false} {
		res, errs := bootstrap.Prompt(raw)
		if len(errs) != 1 || errs[0].Path != "" || res != (bootstrap.PromptResult{}) {
			t.Errorf("Prompt(%#v) = %+v, %v; want one problem at the root", raw, res, errs)
		}
	}
}

func TestPromptDoesNotMutateInput(t *testing.T) {
	doc := fixture.PromptDocument(fixture.PromptOptions{InitialOptions: fixture.InitialOptions{NonASCIIPaths: true}})
	before, _ := canon.Encode(doc)
	bootstrap.Prompt(doc)
	after, _ := canon.Encode(doc)
	if string(before) != string(after) {
		t.Error("Prompt changed its input")
	}
}
