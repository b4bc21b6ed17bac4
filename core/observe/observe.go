// Package observe holds the raw, unclassified facts read from GitHub about one
// pull request. ghclient fills these; core/classify turns them into the state's
// responses, threads and gates. Nothing here is trusted: every string is remote
// text and every id is as GitHub reported it.
package observe

// Actor is the author of a comment, review or reaction.
// ID is the GitHub database id (0 when GitHub did not say); Type is GitHub's
// account type as reported ("Bot", "User", "Organization", "Mannequin").
type Actor struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

// IssueComment is a PR conversation comment.
type IssueComment struct {
	ID           int64  `json:"id"`
	NodeID       string `json:"node_id"`
	Author       Actor  `json:"author"`
	Body         string `json:"body"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	LastEditedAt string `json:"last_edited_at"` // "" when never edited
}

// Review is a pull request review.
type Review struct {
	ID           int64  `json:"id"`
	NodeID       string `json:"node_id"`
	Author       Actor  `json:"author"`
	Body         string `json:"body"`
	State        string `json:"state"`     // COMMENTED, APPROVED, CHANGES_REQUESTED, DISMISSED, PENDING
	CommitID     string `json:"commit_id"` // 40-hex, "" when unknown
	SubmittedAt  string `json:"submitted_at"`
	UpdatedAt    string `json:"updated_at"`
	LastEditedAt string `json:"last_edited_at"`
	CommentCount int    `json:"comment_count"` // inline comments attached to this review
}

// ReviewComment is an inline review comment.
type ReviewComment struct {
	ID               int64  `json:"id"`
	NodeID           string `json:"node_id"`
	ReviewID         int64  `json:"review_id"`      // 0 when not attached
	InReplyToID      int64  `json:"in_reply_to_id"` // 0 for a thread root
	Author           Actor  `json:"author"`
	Body             string `json:"body"`
	CreatedAt        string `json:"created_at"`
	UpdatedAt        string `json:"updated_at"`
	LastEditedAt     string `json:"last_edited_at"`
	CommitID         string `json:"commit_id"`
	OriginalCommitID string `json:"original_commit_id"`
	Path             string `json:"path"`
}

// ThreadComment is one comment inside a review thread, in thread order.
type ThreadComment struct {
	NodeID           string `json:"node_id"`
	ID               int64  `json:"id"`
	Author           Actor  `json:"author"`
	Body             string `json:"body"`
	CreatedAt        string `json:"created_at"`
	LastEditedAt     string `json:"last_edited_at"`
	CommitID         string `json:"commit_id"`
	OriginalCommitID string `json:"original_commit_id"`
}

// Thread is a review thread; Comments[0] is its root.
// Line fields are nil when GitHub reports null.
type Thread struct {
	ID           string          `json:"id"` // node id
	IsResolved   bool            `json:"is_resolved"`
	IsOutdated   bool            `json:"is_outdated"`
	Path         string          `json:"path"`
	Line         *int64          `json:"line"`
	OriginalLine *int64          `json:"original_line"`
	StartLine    *int64          `json:"start_line"`
	Side         string          `json:"side"` // LEFT or RIGHT, "" when null
	Comments     []ThreadComment `json:"comments"`
}

// Reaction on the PR itself (Subject "pr") or on a comment (Subject is its id).
type Reaction struct {
	Content   string `json:"content"` // REST spelling: "eyes", "+1", ...
	User      Actor  `json:"user"`
	CreatedAt string `json:"created_at"`
	Subject   string `json:"subject"`
}

// CheckRun of the head commit.
type CheckRun struct {
	Name       string `json:"name"`
	Status     string `json:"status"`     // queued, in_progress, completed, ...
	Conclusion string `json:"conclusion"` // success, failure, neutral, skipped, ... "" while running
}

// CommitStatus of the head commit (legacy statuses API).
type CommitStatus struct {
	Context string `json:"context"`
	State   string `json:"state"` // success, failure, error, pending
}

// PullRequest is the PR itself. Enumerations use GitHub's GraphQL spelling;
// an empty string means GitHub did not say (never guessed).
type PullRequest struct {
	Number            int64  `json:"number"`
	URL               string `json:"url"`
	Title             string `json:"title"`
	Body              string `json:"body"`
	State             string `json:"state"` // OPEN, CLOSED, MERGED
	IsDraft           bool   `json:"is_draft"`
	BaseRefName       string `json:"base_ref_name"`
	BaseSHA           string `json:"base_sha"`
	HeadRefName       string `json:"head_ref_name"`
	HeadSHA           string `json:"head_sha"`
	IsCrossRepository bool   `json:"is_cross_repository"`
	Mergeable         string `json:"mergeable"`          // MERGEABLE, CONFLICTING, UNKNOWN
	MergeStateStatus  string `json:"merge_state_status"` // CLEAN, HAS_HOOKS, BLOCKED, BEHIND, DIRTY, UNSTABLE, DRAFT, UNKNOWN
	ReviewDecision    string `json:"review_decision"`    // APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED, "" when none required
	ReviewRequired    *bool  `json:"review_required"`    // nil when unknown
}

// PR is one complete observation of a pull request. ghclient returns it only
// when every page was read; partial data is an error, never a PR.
type PR struct {
	Repository     string          `json:"repository"` // lowercase owner/repo
	ViewerID       int64           `json:"viewer_id"`
	ObservedAt     string          `json:"observed_at"` // UTC, YYYY-MM-DDTHH:MM:SSZ
	PullRequest    PullRequest     `json:"pull_request"`
	IssueComments  []IssueComment  `json:"issue_comments"`
	Reviews        []Review        `json:"reviews"`
	ReviewComments []ReviewComment `json:"review_comments"`
	Threads        []Thread        `json:"threads"`
	Reactions      []Reaction      `json:"reactions"`
	CheckRuns      []CheckRun      `json:"check_runs"`
	Statuses       []CommitStatus  `json:"statuses"`
	// ChecksRead is false when check runs or statuses could not be read;
	// the checks gate is then "unknown".
	ChecksRead bool `json:"checks_read"`
}
