package watch

import (
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/loop/status"
)

// t0 is the console's clock in every test.
var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

const sha = "0123456789abcdef0123456789abcdef01234567"

func threadsSample() []status.Thread {
	return []status.Thread{
		{ID: "PRRT_1", URL: "https://github.com/acme/widgets/pull/42#discussion_r1", Kind: "actionable", Path: "internal/fetch/loop.go", Line: 88, Priority: "P1", Title: "Retry loop never gives up on a 4xx", Author: "chatgpt-codex-connector[bot]",
			Body: "**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange)</sub></sub> Retry loop never gives up on a 4xx**\n\nA `404` is retried forever:\n\n```go\nfor {\n\tresp, err := get()\n}\n```\n\n- stop on 4xx\n- keep the backoff for 5xx\n"},
		{ID: "PRRT_2", URL: "https://github.com/acme/widgets/pull/42#discussion_r2", Kind: "actionable", Path: "internal/fetch/backoff.go", Line: 12, Priority: "P2", Title: "Jitter uses math/rand without a seed", Author: "chatgpt-codex-connector[bot]", Body: "Use `math/rand/v2`."},
		{ID: "PRRT_3", URL: "https://github.com/acme/widgets/pull/42#discussion_r3", Kind: "eligible", Path: "README.md", Line: 3, Priority: "P3", Title: "Document the new flag", Author: "chatgpt-codex-connector[bot]", Body: "Mention `--retries`."},
		{ID: "PRRT_4", URL: "https://github.com/acme/widgets/pull/42#discussion_r4", Kind: "non-codex", Path: "cmd/main.go", Line: 40, Title: "Can we name this flag --retries?", Author: "octocat", Body: "Naming."},
	}
}

func gatesSample() []status.Gate {
	return []status.Gate{
		{Name: "approvals", State: "pending", WaitingOn: "1 approving review"},
		{Name: "branch protection", State: "pass"},
		{Name: "checks", State: "pending", WaitingOn: "ci/build"},
		{Name: "mergeability", State: "pass"},
	}
}

func historySample() []status.Entry {
	return []status.Entry{
		{Time: t0.Add(-10 * time.Minute), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Points: 1},
		{Time: t0.Add(-8 * time.Minute), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Points: 1},
		{Time: t0.Add(-6 * time.Minute), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Points: 1},
		{Time: t0.Add(-4 * time.Minute), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Points: 1},
		{Time: t0.Add(-2 * time.Minute), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Points: 1},
	}
}

// base is a loop waiting for Codex on round 1.
func base() status.Loop {
	return status.Loop{
		Key: "acme/widgets#42", RunID: "0123456789abcdef0123456789abcdef",
		Repository: "acme/widgets", Number: 42, Title: "Add retry with exponential backoff to the fetch loop",
		URL: "https://github.com/acme/widgets/pull/42", Mode: "approval-gated", Round: 1, MaxRounds: 5,
		Automation: status.Automation{Status: "ACTIVE", RRule: "FREQ=MINUTELY;INTERVAL=2"},
		NextWakeup: t0.Add(83 * time.Second),
		Request:    &status.Request{CommentID: 2001, HeadSHA: sha, CreatedAt: t0.Add(-10 * time.Minute), Deadline: t0.Add(20*time.Minute + 5*time.Second)},
		Gates:      gatesSample(),
		Next:       status.Next{Action: evaluate.ActionWait, Reason: evaluate.ReasonAwaitingResponse, Message: "no Codex response to request 2001 yet"},
		History:    historySample(),
		ObservedAt: t0.Add(-2 * time.Minute),
	}
}

func waiting() status.Loop { return base() }

func codexRunning() status.Loop {
	l := base()
	l.Request.Codex = status.CodexRunning
	return l
}

func awaitingApproval() status.Loop {
	l := base()
	l.Request.Codex = status.CodexAnswered
	l.Threads = threadsSample()
	l.Next = status.Next{Action: evaluate.ActionAwaitApproval, Reason: evaluate.ReasonRemediationPlan, Message: "remediation plan for 2 actionable threads",
		PlanHash: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", PlanKind: "remediation"}
	l.History = append(l.History,
		status.Entry{Time: t0.Add(-1 * time.Minute), Kind: status.EntryWakeup, Action: "plan-remediation", Reason: "findings", Requests: 0, Points: 1},
		status.Entry{Time: t0.Add(-1 * time.Minute), Kind: status.EntryWakeup, Action: "await-approval", Reason: "remediation-plan", Points: 1})
	return l
}

func executing() status.Loop {
	l := awaitingApproval()
	l.Next = status.Next{Action: evaluate.ActionExecuteRemediation, Reason: evaluate.ReasonApproved, PlanHash: l.Next.PlanHash, PlanKind: "remediation"}
	l.Execution = &status.Execution{PlanHash: l.Next.PlanHash, PlanKind: "remediation", Operations: []status.Operation{
		{Name: "edit-files", State: status.OpDone, Receipt: "2 files changed"},
		{Name: "run-validation", State: status.OpDone, Receipt: "go test ./... passed"},
		{Name: "commit", State: status.OpDone, Receipt: "commit 89abcdef0123"},
		{Name: "push", State: status.OpRunning},
		{Name: "reply-to-codex-threads", State: status.OpPending},
		{Name: "request-codex-review", State: status.OpPending},
		{Name: "update-automation", State: status.OpPending},
	}}
	l.History = append(l.History,
		status.Entry{Time: t0.Add(-20 * time.Second), Kind: status.EntryOperation, Op: "edit-files", Receipt: "2 files changed"},
		status.Entry{Time: t0.Add(-15 * time.Second), Kind: status.EntryOperation, Op: "run-validation", Receipt: "go test ./... passed"},
		status.Entry{Time: t0.Add(-5 * time.Second), Kind: status.EntryOperation, Op: "commit", Receipt: "commit 89abcdef0123"})
	return l
}

func halted(reason, message string) status.Loop {
	l := base()
	l.Next = status.Next{Action: evaluate.ActionHalt, Reason: reason, Message: message}
	l.Automation = status.Automation{Status: "PAUSED", Reason: reason, RRule: "FREQ=MINUTELY;INTERVAL=2"}
	l.NextWakeup = time.Time{}
	l.History = append(l.History, status.Entry{Time: t0.Add(-30 * time.Second), Kind: status.EntryWakeup, Action: "halt", Reason: reason, Points: 1, Message: message})
	return l
}

// haltCases are the halts issue 8 names, each with the evaluator's or the
// executor's message.
var haltCases = []struct{ name, reason, message string }{
	{"request-timeout", evaluate.ReasonRequestTimeout, "no Codex response to request 2001 by 12:20:05Z"},
	{"foreign-push", evaluate.ReasonHeadDrift, "head is fedcba9 but the run last pushed 0123456"},
	{"pr-closed", evaluate.ReasonPRClosed, "pull request #42 is closed"},
	{"pr-merged", evaluate.ReasonPRMerged, "pull request #42 was merged"},
	{"fix-round-limit", evaluate.ReasonFixRoundLimit, "5 of 5 fix rounds used"},
	{"stale-claim", evaluate.ReasonStaleClaim, "claim by host-a expired at 11:40:00Z"},
	{"fixer-outside-paths", status.ReasonOutsidePaths, "the fixer changed go.mod; nothing was committed"},
	{"validation-failed", status.ReasonValidationFailed, "go test ./... exited 1"},
}

func finalized() status.Loop {
	l := base()
	l.Round = 2
	l.Request.Codex = status.CodexThumbsUp
	l.Next = status.Next{Action: evaluate.ActionDone, Reason: evaluate.ReasonFinalized, Message: "finalized; the automation is deleted"}
	l.Automation = status.Automation{}
	l.NextWakeup = time.Time{}
	l.FinalizedAt = t0.Add(-30 * time.Second)
	l.Gates = []status.Gate{{Name: "approvals", State: "pass"}, {Name: "branch protection", State: "pass"}, {Name: "checks", State: "pass"}, {Name: "mergeability", State: "pass"}}
	l.MergeGate = "approvals: pass (2 approving reviews)\nchecks: pass (3 of 3)"
	l.Threads = []status.Thread{{ID: "PRRT_1", Kind: "resolved", Path: "internal/fetch/loop.go", Line: 88, Priority: "P1", Title: "Retry loop never gives up on a 4xx"}}
	l.History = append(l.History,
		status.Entry{Time: t0.Add(-50 * time.Second), Kind: status.EntryOperation, Op: "mark-draft-ready", Receipt: "ready for review"},
		status.Entry{Time: t0.Add(-45 * time.Second), Kind: status.EntryOperation, Op: "resolve-codex-threads", Receipt: "1 thread resolved"},
		status.Entry{Time: t0.Add(-30 * time.Second), Kind: status.EntryOperation, Op: "delete-owned-automation", Receipt: "automation deleted"},
		status.Entry{Time: t0.Add(-30 * time.Second), Kind: status.EntryWakeup, Action: "finish-finalization", Reason: "finalization-plan", Requests: 1, Points: 1})
	return l
}
