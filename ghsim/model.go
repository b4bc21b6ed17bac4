package ghsim

import "time"

// Account types as GitHub reports them in REST "type" and GraphQL __typename.
const (
	TypeUser         = "User"
	TypeBot          = "Bot"
	TypeOrganization = "Organization"
)

// The real Codex bot identity (PROTOCOL.md policy v1).
const (
	CodexBotLogin = "chatgpt-codex-connector[bot]"
	CodexBotID    = int64(199175422)
	CodexAppSlug  = "chatgpt-codex-connector"
)

// Account is a user, bot or organization. Accounts are keyed by ID, not
// login, so that a look-alike with the Codex bot's login can coexist with it.
type Account struct {
	Login  string
	ID     int64
	Type   string // TypeUser, TypeBot or TypeOrganization
	Name   string
	NodeID string // assigned when empty
}

// CodexBot returns the real Codex bot account.
func CodexBot() Account {
	return Account{Login: CodexBotLogin, ID: CodexBotID, Type: TypeBot}
}

// Commit is the metadata the simulator keeps for a SHA.
type Commit struct {
	SHA     string
	Message string
	Parents []string
	Date    time.Time
	Author  string // name; email is derived
}

// PullRequest is a pull request as seeded or observed. Enumerations use
// GitHub's GraphQL spelling; an empty ReviewDecision means "none required"
// (GraphQL null).
type PullRequest struct {
	Number           int
	ID               int64
	NodeID           string
	Title            string
	Body             string
	Author           Account
	State            string // "open" or "closed"
	Merged           bool
	Draft            bool
	Base             string // base branch name
	Head             string // head branch name
	HeadRepo         string // "owner/name" of a fork; "" for the same repository
	Mergeable        string // MERGEABLE, CONFLICTING, UNKNOWN
	MergeStateStatus string // CLEAN, HAS_HOOKS, BLOCKED, BEHIND, DIRTY, UNSTABLE, DRAFT, UNKNOWN
	ReviewDecision   string // APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED, "" (null)
	CreatedAt        time.Time
	UpdatedAt        time.Time
	// Read-only on output: current tips of the head and base branches.
	HeadSHA string
	BaseSHA string
}

// Comment is a PR conversation (issue) comment.
type Comment struct {
	ID                int64
	NodeID            string
	Author            Account
	Body              string
	CreatedAt         time.Time
	UpdatedAt         time.Time
	LastEditedAt      time.Time // zero: never edited
	AuthorAssociation string    // defaults to "NONE"
}

// Review is a pull request review.
type Review struct {
	ID           int64
	NodeID       string
	Author       Account
	Body         string
	State        string // COMMENTED, APPROVED, CHANGES_REQUESTED, DISMISSED, PENDING
	CommitID     string
	SubmittedAt  time.Time
	UpdatedAt    time.Time
	LastEditedAt time.Time
}

// ReviewComment is an inline review comment. Zero line numbers mean null.
type ReviewComment struct {
	ID                int64
	NodeID            string
	ReviewID          int64
	InReplyToID       int64
	ThreadID          string // node id of its thread
	Author            Account
	Body              string
	Path              string
	DiffHunk          string
	CommitID          string
	OriginalCommitID  string
	Line              int
	OriginalLine      int
	StartLine         int
	OriginalStartLine int
	Side              string // LEFT or RIGHT
	StartSide         string
	CreatedAt         time.Time
	UpdatedAt         time.Time
	LastEditedAt      time.Time
}

// Thread is a review thread. Comments[0] is its root.
type Thread struct {
	NodeID            string
	Resolved          bool
	Outdated          bool
	Path              string
	Line              int
	OriginalLine      int
	StartLine         int
	OriginalStartLine int
	DiffSide          string
	StartDiffSide     string
	Comments          []ReviewComment
}

// Reaction on a PR or a comment. Content uses the REST spelling
// ("+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes").
type Reaction struct {
	ID        int64
	NodeID    string
	Content   string
	User      Account
	CreatedAt time.Time
}

// CheckRun of a commit. Status and Conclusion use the REST spelling
// (queued/in_progress/completed; success/failure/neutral/...; "" while running).
type CheckRun struct {
	ID          int64
	NodeID      string
	HeadSHA     string
	Name        string
	Status      string
	Conclusion  string
	StartedAt   time.Time
	CompletedAt time.Time
	DetailsURL  string
}

// CommitStatus is a legacy commit status (state: pending, success, failure, error).
type CommitStatus struct {
	ID          int64
	NodeID      string
	SHA         string
	Context     string
	State       string
	Description string
	TargetURL   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// --- internal containers -------------------------------------------------

type repoState struct {
	id            int64
	nodeID        string
	owner         *Account
	name          string
	defaultBranch string
	private       bool
	branches      map[string]string // name -> sha
	protected     map[string]bool
	rules         map[string][]map[string]any
	pulls         []*pullState
	checkRuns     []*CheckRun
	statuses      []*CommitStatus
	pushes        []Push // push.go
}

func (st *repoState) fullName() string { return st.owner.Login + "/" + st.name }

type pullState struct {
	repo           *repoState
	pr             PullRequest
	commits        []string // head SHAs in push order; last is the head
	comments       []*Comment
	reviews        []*Review
	reviewComments []*ReviewComment
	threads        []*threadState
	reactions      []*Reaction           // on the PR itself
	commentReacts  map[int64][]*Reaction // issue comment id -> reactions
	gatesScripted  bool                  // gates.go: a GateScript drives this PR's gates
}

type threadState struct {
	pull     *pullState
	t        Thread // Comments unused here; see comments
	comments []*ReviewComment
}

func (p *pullState) findComment(id int64) *Comment {
	for _, c := range p.comments {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (p *pullState) findReviewComment(id int64) *ReviewComment {
	for _, c := range p.reviewComments {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (p *pullState) findReview(id int64) *Review {
	for _, r := range p.reviews {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (p *pullState) findThread(nodeID string) *threadState {
	for _, t := range p.threads {
		if t.t.NodeID == nodeID {
			return t
		}
	}
	return nil
}

// snapshot returns a copy of the thread with its comments.
func (t *threadState) snapshot() Thread {
	out := t.t
	out.Comments = make([]ReviewComment, len(t.comments))
	for i, c := range t.comments {
		out.Comments[i] = *c
	}
	return out
}
