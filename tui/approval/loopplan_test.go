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
		RequestKey: "2600000004:" + strings.Repeat("c", 40), Responses: []schema.Response{{ID: "1"}, {ID: "2"}},
		Operations: []string{policy.OpEditFiles, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads, policy.OpRequestCodexReview, policy.OpUpdateAutomation}}
	hash := strings.Repeat("d", 64)
	v := FromRemediation(m, hash, []byte("{}"), policy.ModeApprovalGated, 2, loopPlanObs("**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Reset the budget**\nmore"), []File{{Path: "internal/retry/budget.go"}})
	if v.Title != "fix round 2: 1 Codex threads" || v.Body != "request 2600000004 on head cccccccccccc · 2 Codex responses\ninternal/retry/budget.go:42  P1  Reset the budget" || v.PlanHash != hash || len(v.Operations) != 6 {
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

// The finalization view states the gates, the request and responses it
// binds, the draft state, the human threads it leaves open and the threads
// to resolve: every fact the manifest hashes.
func TestFinalizationViewShowsGates(t *testing.T) {
	m := schema.FinalizationManifest{Repository: "octo/widgets", PRNumber: 7, EligibleThreads: []schema.Thread{{ID: "T1"}},
		RequestKey: "2600000004:" + strings.Repeat("c", 40), Responses: []schema.Response{{ID: "1"}}, PRIsDraft: true, NonCodexRootedThreads: 2,
		Gates:      schema.Gates{Approvals: "pending", BranchProtection: "pass", Checks: "fail", Mergeability: "pass"},
		Operations: []string{policy.OpResolveCodexThreads, policy.OpDeleteAutomation}}
	v := FromFinalization(m, strings.Repeat("e", 64), nil, policy.ModeApprovalGated, loopPlanObs("Cover the path"))
	if !strings.Contains(v.Body, "approvals pending") || !strings.Contains(v.Body, "checks fail") || !strings.Contains(v.Body, "budget.go:42  -  Cover the path") ||
		!strings.Contains(v.Body, "request 2600000004 on head cccccccccccc · 1 Codex response\n") ||
		!strings.Contains(v.Body, "the pull request is a draft (marked ready first) · 2 review threads left open (not Codex's)") {
		t.Fatalf("body %q", v.Body)
	}
}

// Every operation name is shown whole, however long: the names are what is
// approved ("delete-owned-automation" and "reply-to-codex-threads" were cut
// to fit a 21-cell column).
func TestLoopPlanOperationNamesAreNeverCut(t *testing.T) {
	hash := strings.Repeat("e", 64)
	fin := FromFinalization(schema.FinalizationManifest{Repository: "octo/widgets", PRNumber: 7,
		Operations: []string{policy.OpMarkDraftReady, policy.OpResolveCodexThreads, policy.OpDeleteAutomation}},
		hash, []byte("{}"), policy.ModeApprovalGated, nil)
	rem := FromRemediation(schema.RemediationManifest{Repository: "octo/widgets", PRNumber: 7, Paths: []string{"a.go"},
		Operations: []string{policy.OpEditFiles, policy.OpRunValidation, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads, policy.OpRequestCodexReview, policy.OpUpdateAutomation}},
		hash, []byte("{}"), policy.ModeApprovalGated, 1, nil, nil)
	for _, v := range []View{fin, rem} {
		for _, size := range [][2]int{{100, 30}, {120, 40}} {
			c := &calls{}
			model := New(c.config(v, RecheckResult{PlanHash: hash}, "ok"), asciiStyles())
			model.SetSize(size[0], size[1])
			screen := model.View()
			if !strings.Contains(screen, "Operations (") {
				t.Fatalf("%dx%d: the operations pane is not on the screen:\n%s", size[0], size[1], screen)
			}
			for _, op := range v.Operations {
				if !strings.Contains(screen, op.Name+" ") {
					t.Errorf("%dx%d: operation %q is not shown whole:\n%s", size[0], size[1], op.Name, screen)
				}
			}
		}
	}
}

// A plan without file content (a fix round before its edit) gives the rows
// an empty files pane would take to the summary: the whole of a
// two-thread fix round's summary is on the screen at 80x22, not a scrolled
// part (with five rows kept for the empty files pane it needed three more).
func TestFixRoundSummaryTakesTheEmptyFilesRows(t *testing.T) {
	line := func(n int64) *int64 { return &n }
	obs := &observe.PR{Threads: []observe.Thread{
		{ID: "T1", Path: "internal/retry/budget.go", Line: line(17), Comments: []observe.ThreadComment{{Body: "**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Reset the retry budget after a successful attempt**"}}},
		{ID: "T2", Path: "internal/httpclient/client.go", Line: line(12), Comments: []observe.ThreadComment{{Body: "**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>  Rewind the request body before retrying**"}}},
	}}
	m := schema.RemediationManifest{Repository: "octo-org/widgets", RemoteName: "origin", BaseBranch: "main", HeadBranch: "feature/retry-budget",
		BaseSHA: strings.Repeat("b", 40), CurrentHeadSHA: strings.Repeat("c", 40), RunID: strings.Repeat("a", 32), PRNumber: 1,
		ActionableThreads: []schema.Thread{{ID: "T1"}, {ID: "T2"}}, Paths: []string{"internal/httpclient/client.go", "internal/retry/budget.go"},
		RequestKey: "2600000001:" + strings.Repeat("c", 40), Responses: []schema.Response{{ID: "1"}, {ID: "2"}, {ID: "3"}},
		Operations: []string{policy.OpEditFiles, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads, policy.OpRequestCodexReview, policy.OpUpdateAutomation}}
	hash := strings.Repeat("d", 64)
	v := FromRemediation(m, hash, []byte("{}"), policy.ModeApprovalGated, 1, obs, nil)
	v.Body += "\nPaths the fix may change: internal/httpclient/client.go, internal/retry/budget.go\n"
	c := &calls{}
	model := New(c.config(v, RecheckResult{PlanHash: hash}, "ok"), asciiStyles())
	model.SetSize(80, 22)
	screen := model.View()
	if !strings.Contains(screen, "Paths the fix may change") {
		t.Fatalf("the end of the summary is scrolled off at 80x22:\n%s", screen)
	}
}
