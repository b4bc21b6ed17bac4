package ghsim

import (
	"time"
)

// The demo world used by `make demo`: one open PR with a finished Codex
// findings round waiting for remediation.
const (
	DemoOwner   = "octo-org"
	DemoRepo    = "octo-org/widgets"
	DemoPR      = 42
	DemoBase    = "main"
	DemoHead    = "feature/retry-budget"
	DemoBaseSHA = "3f2a9c1e5b7d4f60a8c2e1b9d7f5a3c1e9b7d5f3"
	DemoHeadSHA = "c0ffee5a1d2b3c4d5e6f708192a3b4c5d6e7f809"
	DemoRunID   = "5d1c0a7e9b3f4e2d8c6a1b0f9e8d7c6b"
)

// DemoRequestBody is the round-0 request comment the demo PR carries.
const DemoRequestBody = "@codex review\n<!-- github-codex-pr-loop-request run=" +
	DemoRunID + " round=0 sha=" + DemoHeadSHA + " -->"

// DemoFindings are the three findings of the demo's Codex review.
func DemoFindings() []Finding {
	f := DefaultFindings()
	return append(f, Finding{
		Priority: 2, Title: "Do not retry non-idempotent requests", Path: "internal/httpclient/client.go", Line: 88,
		Body: "`Do` now retries every request on a 502, including POSTs. A POST whose first attempt reached the server is sent twice; limit retries to idempotent methods or require an idempotency key.",
	})
}

// SeedDemo fills s with the demo repository and returns PR #42. Timestamps
// are relative to the simulator clock: the PR is three hours old, Codex was
// asked two hours ago and answered with a findings review (three threads),
// a human reviewer left one thread, one check run passed and one is still
// running. The next review request is answered with ZeroFindings.
func SeedDemo(s *Server) *PR {
	s.mu.Lock()
	now := s.now()
	viewer := *s.accounts[s.viewer]
	s.mu.Unlock()

	repo := s.AddRepo(RepoSpec{Owner: Account{Login: DemoOwner, ID: 9100001, Type: TypeOrganization, Name: "Octo Org"}, Name: "widgets"})
	reviewer := s.AddAccount(Account{Login: "octocat", ID: 583231, Type: TypeUser, Name: "The Octocat"})
	repo.AddCommit(Commit{SHA: DemoBaseSHA, Message: "Release v1.4.0", Date: now.Add(-26 * time.Hour)})
	repo.AddCommit(Commit{SHA: DemoHeadSHA, Message: "Add a retry budget to the HTTP client", Parents: []string{DemoBaseSHA}, Date: now.Add(-3 * time.Hour)})
	repo.SetBranch(DemoBase, DemoBaseSHA)
	repo.SetBranch(DemoHead, DemoHeadSHA)
	repo.SetProtected(DemoBase, true)
	repo.SetBranchRules(DemoBase, []map[string]any{
		{"type": "pull_request", "ruleset_source_type": "Repository", "ruleset_source": DemoRepo, "ruleset_id": 42,
			"parameters": map[string]any{"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true,
				"require_code_owner_review": false, "require_last_push_approval": false, "required_review_thread_resolution": true,
				"allowed_merge_methods": []any{"merge", "squash", "rebase"}}},
		{"type": "required_status_checks", "ruleset_source_type": "Repository", "ruleset_source": DemoRepo, "ruleset_id": 42,
			"parameters": map[string]any{"strict_required_status_checks_policy": false, "do_not_enforce_on_create": false,
				"required_status_checks": []any{map[string]any{"context": "build"}}}},
	})

	pr, err := repo.AddPR(PullRequest{
		Number: DemoPR, Title: "Add a retry budget to the HTTP client",
		Body:   "Retries transient upstream failures with a per-client budget so that a flapping dependency cannot multiply our load.\n\n- `internal/retry`: the budget\n- `internal/httpclient`: uses it on 502/503",
		Author: viewer, Head: DemoHead, Base: DemoBase,
		Mergeable: "MERGEABLE", MergeStateStatus: "BLOCKED", ReviewDecision: "REVIEW_REQUIRED",
		CreatedAt: now.Add(-3 * time.Hour),
	})
	if err != nil {
		panic("ghsim: demo seed: " + err.Error())
	}

	s.mu.Lock()
	req := s.addCommentLocked(pr.p, Comment{Author: viewer, Body: DemoRequestBody, CreatedAt: now.Add(-2 * time.Hour)})
	s.startCodexLocked(pr.p, req, Scenario{Kind: Findings, Findings: DemoFindings(), StepDelay: 45 * time.Second})
	s.advanceCodexLocked(now)
	s.codex.defaultScenario = Scenario{Kind: ZeroFindings, SignOff: "Keep it up!"}
	s.mu.Unlock()

	human, err := pr.AddThread(ThreadSpec{Root: ReviewComment{
		Author: reviewer, Path: "internal/httpclient/client.go", Line: 61,
		Body:      "Could the budget size come from the client options instead of a constant? We tune it per upstream.",
		CreatedAt: now.Add(-90 * time.Minute),
	}})
	if err != nil {
		panic("ghsim: demo seed: " + err.Error())
	}
	if _, err := pr.Reply(human.NodeID, ReviewComment{Author: viewer, Body: "Good point, I will take it from `Options.RetryBudget` in a follow-up.", CreatedAt: now.Add(-80 * time.Minute)}); err != nil {
		panic("ghsim: demo seed: " + err.Error())
	}

	repo.AddCheckRun(CheckRun{HeadSHA: DemoHeadSHA, Name: "build", Status: "completed", Conclusion: "success",
		StartedAt: now.Add(-170 * time.Minute), CompletedAt: now.Add(-165 * time.Minute)})
	repo.AddCheckRun(CheckRun{HeadSHA: DemoHeadSHA, Name: "test (ubuntu-latest)", Status: "in_progress",
		StartedAt: now.Add(-5 * time.Minute)})
	return pr
}

// DemoFixSHA is the demo PR's head after DemoFollowUp pushes the fix.
const DemoFixSHA = "f1d0c0de5b2a4c6e8f0a1b3c5d7e9f1a2b4c6d8e"

// DemoFollowUpRequestBody is the round-1 request DemoFollowUp posts.
const DemoFollowUpRequestBody = "@codex review\n<!-- github-codex-pr-loop-request run=" +
	DemoRunID + " round=1 sha=" + DemoFixSHA + " -->"

// DemoFollowUp plays the demo's second act now: the author pushes a fix for
// the three findings, resolves their threads and asks Codex again; Codex
// answers with zero findings, one step every stepDelay of the simulator's
// clock (👀, summary Running, the verdict, summary Completed). It is what
// a demo watcher sees change on a refresh.
func DemoFollowUp(s *Server, pr *PR, stepDelay time.Duration) {
	s.mu.Lock()
	now := s.now()
	viewer := *s.accounts[s.viewer]
	s.mu.Unlock()

	repo := pr.Repo()
	repo.AddCommit(Commit{SHA: DemoFixSHA, Message: "Restore the budget on success and retry only idempotent requests",
		Parents: []string{DemoHeadSHA}, Date: now})
	pr.Push(DemoFixSHA)
	for _, t := range pr.Threads() {
		if t.Comments[0].Author.ID == CodexBotID {
			pr.SetOutdated(t.NodeID, true)
			pr.ResolveThread(t.NodeID, true)
		}
	}
	repo.AddCheckRun(CheckRun{HeadSHA: DemoFixSHA, Name: "build", Status: "completed", Conclusion: "success",
		StartedAt: now, CompletedAt: now})
	repo.AddCheckRun(CheckRun{HeadSHA: DemoFixSHA, Name: "test (ubuntu-latest)", Status: "in_progress", StartedAt: now})
	s.QueueCodexScenarios(Scenario{Kind: ZeroFindings, SignOff: "Keep it up!", StepDelay: stepDelay})
	pr.PostComment(Comment{Author: viewer, Body: DemoFollowUpRequestBody, CreatedAt: now})
}
