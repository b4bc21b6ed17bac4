package approval

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

func loopPlanObs(body string) *observe.PR {
	line := int64(42)
	return &observe.PR{Threads: []observe.Thread{{ID: "T1", Path: "internal/retry/budget.go", Line: &line,
		Comments: []observe.ThreadComment{{Body: body}}}}}
}

// The remediation view names each thread path:line with its priority and
// title (Codex's badge markup read, not shown raw), the paths, the round
// and the hash; hostile thread text renders inert.
func TestRemediationViewShowsThreadsPathsAndHash(t *testing.T) {
	m := schema.RemediationManifest{Repository: "octo/widgets", RemoteName: "origin", BaseBranch: "main", HeadBranch: "feature",
		BaseSHA: strings.Repeat("b", 40), CurrentHeadSHA: strings.Repeat("c", 40), RunID: strings.Repeat("a", 32), PRNumber: 7,
		ActionableThreads: []schema.Thread{{ID: "T1"}}, Paths: []string{"internal/retry/budget.go"},
		Operations: []string{policy.OpEditFiles, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads, policy.OpRequestCodexReview, policy.OpUpdateAutomation}}
	hash := strings.Repeat("d", 64)
	v := FromRemediation(m, hash, []byte("{}"), policy.ModeApprovalGated, 2, loopPlanObs("**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Reset the budget**\nmore"), []File{{Path: "internal/retry/budget.go"}})
	if v.Title != "fix round 2: 1 Codex threads" || v.Body != "internal/retry/budget.go:42  P1  Reset the budget" || v.PlanHash != hash || len(v.Operations) != 6 {
		t.Fatalf("view %+v", v)
	}
	hv := FromRemediation(m, hash, []byte("{}"), policy.ModeApprovalGated, 2, loopPlanObs(hostile("title")), nil)
	c := &calls{}
	model := New(c.config(hv, RecheckResult{PlanHash: hash}, "ok"), asciiStyles())
	model.SetSize(120, 40)
	screen := model.View()
	if !strings.Contains(screen, "budget.go:42") || !strings.Contains(screen, "fix round 2") {
		t.Fatalf("the thread or the round is not on the screen:\n%s", screen)
	}
	if bad := unsafeText(screen); bad != "" {
		t.Fatalf("hostile thread text reached the screen: %q", bad)
	}
}

// The finalization view states the gates and the threads to resolve.
func TestFinalizationViewShowsGates(t *testing.T) {
	m := schema.FinalizationManifest{Repository: "octo/widgets", PRNumber: 7, EligibleThreads: []schema.Thread{{ID: "T1"}},
		Gates:      schema.Gates{Approvals: "pending", BranchProtection: "pass", Checks: "fail", Mergeability: "pass"},
		Operations: []string{policy.OpResolveCodexThreads, policy.OpDeleteAutomation}}
	v := FromFinalization(m, strings.Repeat("e", 64), nil, policy.ModeApprovalGated, loopPlanObs("Cover the path"))
	if !strings.Contains(v.Body, "approvals pending") || !strings.Contains(v.Body, "checks fail") || !strings.Contains(v.Body, "budget.go:42  -  Cover the path") {
		t.Fatalf("body %q", v.Body)
	}
}
