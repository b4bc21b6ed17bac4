// Package policy holds the v1 policy constants of PROTOCOL §3. They are data the
// evaluator compares against, so a document can never choose its own policy.
package policy

import "strings"

const (
	SchemaVersion       = 1
	Host                = "github.com"
	HeartbeatRRule      = "FREQ=MINUTELY;INTERVAL=2"
	RequestTimeoutSecs  = 1800
	MaxFixRounds        = 5
	ClaimTTLSecs        = 600
	CodexBotID          = 199175422
	CodexBotLogin       = "chatgpt-codex-connector[bot]"
	CodexAppSlug        = "chatgpt-codex-connector"
	CodexBotType        = "Bot"
	CredentialStrategy  = "gh-cli-https"
	SafeProfile         = "sanitized-gh-https-v1"
	RiskProfile         = "explicit-risk-acceptance-v1"
	IsolationSafe       = "no-network-minimal-env-checkout-only"
	IsolationRisk       = "explicit-risk-acceptance"
	FinalHeadShaMarker  = "{{FINAL_HEAD_SHA}}"
	AutomationKeyMarker = "{{AUTOMATION_KEY}}"
	CheckpointMarker    = "{{BOOTSTRAP_CHECKPOINT_JSON}}"
)

// AutomationPromptTemplate is the evaluator-owned v1 template: the seed's three
// lines joined by "\n" with no trailing newline.
const AutomationPromptTemplate = "Continue $github-codex-pr-loop from the exact checkpoint below. Re-fetch all external state and follow only the installed evaluator's emitted action.\n" +
	"Loop key: {{AUTOMATION_KEY}}\n" +
	"Bootstrap checkpoint JSON: {{BOOTSTRAP_CHECKPOINT_JSON}}"

// Modes.
const (
	ModeAutonomous    = "autonomous"
	ModeApprovalGated = "approval-gated"
	ModeReportOnly    = "report-only"
)

// Response sources, in their sort order.
const (
	SourceIssueComment  = "issue-comment"
	SourceReview        = "review"
	SourceReviewComment = "review-comment"
)

// Gate values.
const (
	GatePass    = "pass"
	GateFail    = "fail"
	GatePending = "pending"
	GateUnknown = "unknown"
)

// Operation names of every manifest.
const (
	OpFetchBase           = "fetch-base"
	OpCreateBranch        = "create-branch"
	OpRunValidation       = "run-validation"
	OpStageFiles          = "stage-files"
	OpCommit              = "commit"
	OpPush                = "push"
	OpCreatePR            = "create-pr"
	OpReusePR             = "reuse-pr"
	OpRequestCodexReview  = "request-codex-review"
	OpBootstrapAutomation = "bootstrap-automation"
	OpEditFiles           = "edit-files"
	OpReplyToCodexThreads = "reply-to-codex-threads"
	OpUpdateAutomation    = "update-automation"
	OpMarkDraftReady      = "mark-draft-ready"
	OpResolveCodexThreads = "resolve-codex-threads"
	OpDeleteAutomation    = "delete-owned-automation"
)

// RequestMarker is the canonical marker of a review request for a run and round.
// sha is either a 40-hex head or the {{FINAL_HEAD_SHA}} placeholder.
func RequestMarker(runID string, round int, sha string) string {
	return "<!-- github-codex-pr-loop-request run=" + runID + " round=" + itoa(round) + " sha=" + sha + " -->"
}

// ReviewTrigger is the first line of every review request: the documented
// way to ask Codex for a code review. Any other "@codex …" wording starts a
// Codex cloud task instead, which answers in another form (PROTOCOL §3, §5).
const ReviewTrigger = "@codex review"

// InitialReviewTemplate is the round-0 review-request template for a run.
func InitialReviewTemplate(runID string) string {
	return ReviewTrigger + "\n" + RequestMarker(runID, 0, FinalHeadShaMarker)
}

// FixReviewTemplate is the review-request template of fix round n (n >= 1).
func FixReviewTemplate(runID string, round int) string {
	return ReviewTrigger + "\n" + RequestMarker(runID, round, FinalHeadShaMarker)
}

// AutomationKey is the canonical loop key.
func AutomationKey(repository string, prNumber int64, runID string) string {
	return "github-codex-pr-loop/" + repository + "/pull/" + itoa64(prNumber) + "/run/" + runID
}

// RequestKey is "<request-comment-database-id>:<requested-40-hex-head-sha>".
func RequestKey(commentID int64, headSHA string) string {
	return itoa64(commentID) + ":" + strings.ToLower(headSHA)
}

func itoa(n int) string { return itoa64(int64(n)) }

func itoa64(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Table is the policy as printed by `gh-prloop policy --json`.
func Table() map[string]any {
	return map[string]any{
		"policy_schema_version":      SchemaVersion,
		"host":                       Host,
		"heartbeat_rrule":            HeartbeatRRule,
		"request_timeout_seconds":    RequestTimeoutSecs,
		"max_fix_rounds":             MaxFixRounds,
		"claim_ttl_seconds":          ClaimTTLSecs,
		"codex_bot_id":               CodexBotID,
		"codex_bot_login":            CodexBotLogin,
		"codex_app_slug":             CodexAppSlug,
		"automation_key_format":      "github-codex-pr-loop/<repository>/pull/<pr_number>/run/<run_id>",
		"request_marker_format":      "<!-- github-codex-pr-loop-request run=<run_id> round=<n> sha=<40-hex> -->",
		"request_key_format":         "<request-comment-database-id>:<requested-40-hex-head-sha>",
		"automation_prompt_template": AutomationPromptTemplate,
		"safe_git_profile":           SafeProfile,
		"credential_strategy":        CredentialStrategy,
	}
}
