package ghclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
)

// bigInt decodes GitHub's BigInt scalar (a decimal string) and, leniently,
// a JSON number. Set is false for null or absent.
type bigInt struct {
	V   int64
	Set bool
}

func (b *bigInt) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*b = bigInt{}
		return nil
	}
	s := string(data)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("BigInt %q: %w", s, err)
	}
	*b = bigInt{V: v, Set: true}
	return nil
}

type gqlPageInfo struct {
	HasNextPage bool    `json:"hasNextPage"`
	EndCursor   *string `json:"endCursor"`
}

// next returns the cursor to continue with, or "" when this was the last page.
func (p gqlPageInfo) next(what string) (string, error) {
	if !p.HasNextPage {
		return "", nil
	}
	if p.EndCursor == nil || *p.EndCursor == "" {
		return "", incomplete("%s: hasNextPage without endCursor", what)
	}
	return *p.EndCursor, nil
}

type gqlActor struct {
	Typename   string `json:"__typename"`
	Login      string `json:"login"`
	DatabaseID *int64 `json:"databaseId"`
}

func (a *gqlActor) actor() observe.Actor {
	if a == nil {
		return observe.Actor{} // deleted account ("ghost"): GitHub says nothing
	}
	out := observe.Actor{Login: a.Login, Type: a.Typename}
	if a.DatabaseID != nil {
		out.ID = *a.DatabaseID
	}
	return out
}

type gqlOID struct {
	OID string `json:"oid"`
}

func oidOf(o *gqlOID) string {
	if o == nil {
		return ""
	}
	return o.OID
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

type gqlIssueComment struct {
	ID             string    `json:"id"`
	FullDatabaseID bigInt    `json:"fullDatabaseId"`
	Author         *gqlActor `json:"author"`
	Body           string    `json:"body"`
	CreatedAt      string    `json:"createdAt"`
	UpdatedAt      string    `json:"updatedAt"`
	LastEditedAt   *string   `json:"lastEditedAt"`
}

type gqlReview struct {
	ID             string    `json:"id"`
	FullDatabaseID bigInt    `json:"fullDatabaseId"`
	Author         *gqlActor `json:"author"`
	Body           string    `json:"body"`
	State          string    `json:"state"`
	Commit         *gqlOID   `json:"commit"`
	SubmittedAt    *string   `json:"submittedAt"`
	UpdatedAt      string    `json:"updatedAt"`
	LastEditedAt   *string   `json:"lastEditedAt"`
}

type gqlDBRef struct {
	FullDatabaseID bigInt `json:"fullDatabaseId"`
}

type gqlReviewComment struct {
	ID                string    `json:"id"`
	FullDatabaseID    bigInt    `json:"fullDatabaseId"`
	Author            *gqlActor `json:"author"`
	Body              string    `json:"body"`
	CreatedAt         string    `json:"createdAt"`
	UpdatedAt         string    `json:"updatedAt"`
	LastEditedAt      *string   `json:"lastEditedAt"`
	Path              string    `json:"path"`
	Commit            *gqlOID   `json:"commit"`
	OriginalCommit    *gqlOID   `json:"originalCommit"`
	PullRequestReview *gqlDBRef `json:"pullRequestReview"`
	ReplyTo           *gqlDBRef `json:"replyTo"`
}

type gqlThread struct {
	ID           string                  `json:"id"`
	IsResolved   bool                    `json:"isResolved"`
	IsOutdated   bool                    `json:"isOutdated"`
	Path         string                  `json:"path"`
	Line         *int64                  `json:"line"`
	OriginalLine *int64                  `json:"originalLine"`
	StartLine    *int64                  `json:"startLine"`
	DiffSide     *string                 `json:"diffSide"`
	Comments     *page[gqlReviewComment] `json:"comments"`
}

type gqlReactionGroup struct {
	Content  string `json:"content"`
	Reactors *struct {
		PageInfo *gqlPageInfo      `json:"pageInfo"`
		Edges    []*gqlReactorEdge `json:"edges"`
	} `json:"reactors"`
}

type gqlReactorEdge struct {
	ReactedAt string    `json:"reactedAt"`
	Node      *gqlActor `json:"node"`
}

type gqlContext struct {
	Typename   string  `json:"__typename"`
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	Conclusion *string `json:"conclusion"`
	Context    string  `json:"context"`
	State      string  `json:"state"`
}

// page is one page of a connection; nodes are pointers so that a null
// entry is detected rather than read as a zero value.
type page[T any] struct {
	PageInfo *gqlPageInfo `json:"pageInfo"`
	Nodes    []*T         `json:"nodes"`
}

// decodePage checks that a connection page is whole and returns its nodes
// and the cursor of the next page ("" when none).
func decodePage[T any](raw json.RawMessage, what string) ([]*T, string, error) {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, "", incomplete("%s: connection missing", what)
	}
	var p page[T]
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, "", fmt.Errorf("decoding %s: %w", what, err)
	}
	return checkPage(&p, what)
}

func checkPage[T any](p *page[T], what string) ([]*T, string, error) {
	if p == nil || p.PageInfo == nil || p.Nodes == nil {
		return nil, "", incomplete("%s: page without pageInfo or nodes", what)
	}
	for i, n := range p.Nodes {
		if n == nil {
			return nil, "", incomplete("%s: node %d is null", what, i)
		}
	}
	next, err := p.PageInfo.next(what)
	return p.Nodes, next, err
}

func (c *gqlIssueComment) observe() (observe.IssueComment, error) {
	if !c.FullDatabaseID.Set || c.ID == "" {
		return observe.IssueComment{}, incomplete("issue comment %q without ids", c.ID)
	}
	return observe.IssueComment{
		ID: c.FullDatabaseID.V, NodeID: c.ID, Author: c.Author.actor(), Body: c.Body,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, LastEditedAt: str(c.LastEditedAt),
	}, nil
}

func (r *gqlReview) observe(inline map[int64]int) (observe.Review, error) {
	if !r.FullDatabaseID.Set || r.ID == "" {
		return observe.Review{}, incomplete("review %q without ids", r.ID)
	}
	return observe.Review{
		ID: r.FullDatabaseID.V, NodeID: r.ID, Author: r.Author.actor(), Body: r.Body, State: r.State,
		CommitID: oidOf(r.Commit), SubmittedAt: str(r.SubmittedAt), UpdatedAt: r.UpdatedAt,
		LastEditedAt: str(r.LastEditedAt), CommentCount: inline[r.FullDatabaseID.V],
	}, nil
}

func (c *gqlReviewComment) check() error {
	if !c.FullDatabaseID.Set || c.ID == "" {
		return incomplete("review comment %q without ids", c.ID)
	}
	return nil
}

func (c *gqlReviewComment) reviewID() int64 {
	if c.PullRequestReview == nil {
		return 0
	}
	return c.PullRequestReview.FullDatabaseID.V
}

func (c *gqlReviewComment) observe() observe.ReviewComment {
	var replyTo int64
	if c.ReplyTo != nil {
		replyTo = c.ReplyTo.FullDatabaseID.V
	}
	return observe.ReviewComment{
		ID: c.FullDatabaseID.V, NodeID: c.ID, ReviewID: c.reviewID(), InReplyToID: replyTo,
		Author: c.Author.actor(), Body: c.Body, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		LastEditedAt: str(c.LastEditedAt), CommitID: oidOf(c.Commit),
		OriginalCommitID: oidOf(c.OriginalCommit), Path: c.Path,
	}
}

func (c *gqlReviewComment) threadComment() observe.ThreadComment {
	return observe.ThreadComment{
		NodeID: c.ID, ID: c.FullDatabaseID.V, Author: c.Author.actor(), Body: c.Body,
		CreatedAt: c.CreatedAt, LastEditedAt: str(c.LastEditedAt),
		CommitID: oidOf(c.Commit), OriginalCommitID: oidOf(c.OriginalCommit),
	}
}

// reactionContent maps GraphQL's ReactionContent to the REST spelling.
var reactionContent = map[string]string{
	"THUMBS_UP": "+1", "THUMBS_DOWN": "-1", "LAUGH": "laugh", "HOORAY": "hooray",
	"CONFUSED": "confused", "HEART": "heart", "ROCKET": "rocket", "EYES": "eyes",
}

func reactionName(content string) string {
	if r, ok := reactionContent[content]; ok {
		return r
	}
	return strings.ToLower(content) // a new kind: passed on, never guessed
}

// reactions turns one group into reactions on subject ("pr", or a comment's
// decimal id). more is true when the group has reactors beyond this page.
func (g *gqlReactionGroup) reactions(subject string) (rs []observe.Reaction, more bool, err error) {
	if g == nil || g.Content == "" || g.Reactors == nil || g.Reactors.PageInfo == nil || g.Reactors.Edges == nil {
		return nil, false, incomplete("reaction group without content or reactors")
	}
	for _, e := range g.Reactors.Edges {
		if e == nil || e.Node == nil || e.ReactedAt == "" {
			return nil, false, incomplete("%s reactor without account or time", g.Content)
		}
		rs = append(rs, observe.Reaction{Content: reactionName(g.Content), User: e.Node.actor(), CreatedAt: e.ReactedAt, Subject: subject})
	}
	return rs, g.Reactors.PageInfo.HasNextPage, nil
}

// statusState maps StatusState to the REST spelling. EXPECTED (a required
// context that has not reported yet) is what REST shows as pending.
func statusState(s string) string {
	if s == "EXPECTED" {
		return "pending"
	}
	return strings.ToLower(s)
}

func lower(s string) string { return strings.ToLower(s) }
