package report

import "fmt"

// sample is a findings report with something in every section.
func sample() View {
	return View{
		Repository: "acme/widgets", Number: 42,
		Title: "Add retry with exponential backoff to the fetch loop",
		URL:   "https://github.com/acme/widgets/pull/42", State: "open",
		HeadSHA:    "0123456789abcdef0123456789abcdef01234567",
		BaseBranch: "main", HeadBranch: "feature/retry",
		ObservedAt:     "2025-06-01T12:00:00Z",
		Classification: "findings", Action: "report", Reason: "findings",
		Message: "2 actionable Codex threads on the current head",
		Request: &RequestRow{ID: 2001, CreatedAt: "2025-06-01T11:50:00Z", HeadSHA: "0123456789abcdef0123456789abcdef01234567", Deadline: "2025-06-01T12:20:00Z"},
		Responses: []ResponseRow{
			{Source: "review", ID: "3001", CreatedAt: "2025-06-01T11:58:00Z", Commit: "0123456789abcdef0123456789abcdef01234567", Qualifies: true},
			{Source: "review-comment", ID: "3002", CreatedAt: "2025-06-01T11:58:01Z", Commit: "0123456789abcdef0123456789abcdef01234567", Qualifies: true},
			{Source: "issue-comment", ID: "2990", CreatedAt: "2025-05-30T09:00:00Z", Commit: "fedcba9876543210fedcba9876543210fedcba98", ZeroFindings: true},
		},
		Threads: []ThreadRow{
			{Kind: "actionable", Path: "internal/fetch/loop.go", Line: 88, Priority: "P1", Title: "Retry loop never gives up on a 4xx", Author: "chatgpt-codex-connector[bot]"},
			{Kind: "actionable", Path: "internal/fetch/backoff.go", Line: 12, Priority: "P2", Title: "Jitter uses math/rand without a seed", Author: "chatgpt-codex-connector[bot]"},
			{Kind: "eligible", Path: "README.md", Line: 3, Priority: "P3", Title: "Document the new flag", Author: "chatgpt-codex-connector[bot]"},
			{Kind: "non-codex", Path: "cmd/main.go", Line: 40, Title: "Can we name this flag --retries?", Author: "octocat"},
		},
		Gates: Gates{Approvals: "pass", BranchProtection: "fail", Checks: "pending", Mergeability: "unknown"},
		Cost:  "5 requests, 1 GraphQL point",
	}
}

// manyThreads is sample with enough threads to need scrolling.
func manyThreads(n int) View {
	v := sample()
	v.Threads = nil
	for i := range n {
		v.Threads = append(v.Threads, ThreadRow{Kind: "actionable", Path: fmt.Sprintf("pkg/file%02d.go", i), Line: int64(10 + i), Priority: "P2", Title: fmt.Sprintf("finding number %d", i), Author: "chatgpt-codex-connector[bot]"})
	}
	return v
}
