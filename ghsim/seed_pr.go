package ghsim

import (
	"fmt"
	"time"
)

// PR is a handle on a seeded pull request. Add* methods write history
// without side effects; PostComment behaves like the API and can wake the
// Codex bot.
type PR struct {
	s *Server
	p *pullState
}

// ThreadSpec seeds a review thread from its root comment. A Root.ReviewID of
// 0 creates the COMMENTED review GitHub makes for a single comment.
type ThreadSpec struct {
	Root     ReviewComment
	Resolved bool
	Outdated bool
}

// Number is the PR number.
func (h *PR) Number() int { return h.p.pr.Number }

// Repo is the PR's base repository.
func (h *PR) Repo() *Repo { return &Repo{s: h.s, st: h.p.repo} }

// Data returns a snapshot of the PR with live HeadSHA and BaseSHA.
func (h *PR) Data() PullRequest {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.pullDataLocked(h.p)
}

func (s *Server) pullDataLocked(p *pullState) PullRequest {
	out := p.pr
	out.HeadSHA = s.headSHALocked(p)
	out.BaseSHA = s.baseSHALocked(p)
	return out
}

// Update edits the PR's own fields (state, draft, mergeability, title...).
// Head and Base branch names are not meant to change here; use Push.
func (h *PR) Update(f func(*PullRequest)) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	f(&h.p.pr)
	h.p.pr.UpdatedAt = h.s.now()
}

// Push moves the PR's head branch to sha.
func (h *PR) Push(sha string) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if h.p.pr.HeadRepo != "" {
		h.s.addCommitLocked(Commit{SHA: sha})
		h.p.pr.HeadSHA = sha
		h.s.pushedLocked(h.p, sha)
		return
	}
	h.s.setBranchLocked(h.p.repo, h.p.pr.Head, sha)
}

// AddComment seeds a conversation comment (no bot reaction).
func (h *PR) AddComment(c Comment) Comment {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return *h.s.addCommentLocked(h.p, c)
}

// PostComment posts a conversation comment as the API would, so an
// "@codex review" in it starts the Codex bot.
func (h *PR) PostComment(c Comment) Comment {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	out := h.s.addCommentLocked(h.p, c)
	h.s.commentPostedLocked(h.p, out)
	return *out
}

// EditComment replaces a comment's body, setting UpdatedAt and LastEditedAt.
func (h *PR) EditComment(id int64, body string) (Comment, bool) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	c := h.p.findComment(id)
	if c == nil {
		return Comment{}, false
	}
	now := h.s.now()
	c.Body, c.UpdatedAt, c.LastEditedAt = body, now, now
	return *c, true
}

// Comments returns the conversation comments in order.
func (h *PR) Comments() []Comment {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	out := make([]Comment, len(h.p.comments))
	for i, c := range h.p.comments {
		out[i] = *c
	}
	return out
}

func (s *Server) addCommentLocked(p *pullState, c Comment) *Comment {
	if c.Author.Login == "" && c.Author.ID == 0 {
		c.Author = *s.accounts[s.viewer]
	}
	c.Author = *s.accountLocked(c.Author)
	if c.ID == 0 {
		c.ID = s.ids.take("issue-comment")
	} else {
		s.ids.observe("issue-comment", c.ID)
	}
	if c.NodeID == "" {
		c.NodeID = s.ids.node(prefixIssueComment)
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = c.CreatedAt
		if !c.LastEditedAt.IsZero() {
			c.UpdatedAt = c.LastEditedAt
		}
	}
	if c.AuthorAssociation == "" {
		c.AuthorAssociation = s.associationLocked(p.repo, &c.Author)
	}
	out := &c
	p.comments = append(p.comments, out)
	p.pr.UpdatedAt = maxTime(p.pr.UpdatedAt, c.CreatedAt)
	s.nodes[c.NodeID] = nodeRef{kind: "IssueComment", v: out, pull: p}
	return out
}

// associationLocked approximates author_association: the owner is OWNER,
// bots and everyone else NONE.
func (s *Server) associationLocked(st *repoState, a *Account) string {
	if a.ID == st.owner.ID {
		return "OWNER"
	}
	if a.Type == TypeUser && a.ID == s.viewer {
		return "COLLABORATOR"
	}
	return "NONE"
}

// AddReview seeds a review. CommitID defaults to the current head.
func (h *PR) AddReview(r Review) Review {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return *h.s.addReviewLocked(h.p, r)
}

// Reviews returns the reviews in order.
func (h *PR) Reviews() []Review {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	out := make([]Review, len(h.p.reviews))
	for i, r := range h.p.reviews {
		out[i] = *r
	}
	return out
}

func (s *Server) addReviewLocked(p *pullState, r Review) *Review {
	r.Author = *s.accountLocked(r.Author)
	if r.ID == 0 {
		r.ID = s.ids.take("review")
	} else {
		s.ids.observe("review", r.ID)
	}
	if r.NodeID == "" {
		r.NodeID = s.ids.node(prefixReview)
	}
	if r.State == "" {
		r.State = "COMMENTED"
	}
	if r.CommitID == "" {
		r.CommitID = s.headSHALocked(p)
	}
	if r.SubmittedAt.IsZero() {
		r.SubmittedAt = s.now()
	}
	if r.UpdatedAt.IsZero() {
		r.UpdatedAt = maxTime(r.SubmittedAt, r.LastEditedAt)
	}
	out := &r
	p.reviews = append(p.reviews, out)
	p.pr.UpdatedAt = maxTime(p.pr.UpdatedAt, r.SubmittedAt)
	s.nodes[r.NodeID] = nodeRef{kind: "PullRequestReview", v: out, pull: p}
	return out
}

// AddThread seeds a review thread with its root comment and returns it.
func (h *PR) AddThread(spec ThreadSpec) (Thread, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	t, err := h.s.addThreadLocked(h.p, spec)
	if err != nil {
		return Thread{}, err
	}
	return t.snapshot(), nil
}

func (s *Server) addThreadLocked(p *pullState, spec ThreadSpec) (*threadState, error) {
	root := spec.Root
	root.Author = *s.accountLocked(root.Author)
	if root.CreatedAt.IsZero() {
		root.CreatedAt = s.now()
	}
	if root.CommitID == "" {
		root.CommitID = s.headSHALocked(p)
	}
	if root.OriginalCommitID == "" {
		root.OriginalCommitID = root.CommitID
	}
	if root.ReviewID == 0 {
		rv := s.addReviewLocked(p, Review{Author: root.Author, State: "COMMENTED", CommitID: root.OriginalCommitID, SubmittedAt: root.CreatedAt})
		root.ReviewID = rv.ID
	} else if p.findReview(root.ReviewID) == nil {
		return nil, fmt.Errorf("ghsim: review %d not on PR #%d", root.ReviewID, p.pr.Number)
	}
	if root.Side == "" {
		root.Side = "RIGHT"
	}
	if root.OriginalLine == 0 {
		root.OriginalLine = root.Line
	}
	if root.StartLine != 0 && root.StartSide == "" {
		root.StartSide = root.Side
	}
	if root.OriginalStartLine == 0 {
		root.OriginalStartLine = root.StartLine
	}
	t := &threadState{pull: p, t: Thread{
		NodeID:            s.ids.node(prefixThread),
		Resolved:          spec.Resolved,
		Outdated:          spec.Outdated,
		Path:              root.Path,
		Line:              root.Line,
		OriginalLine:      root.OriginalLine,
		StartLine:         root.StartLine,
		OriginalStartLine: root.OriginalStartLine,
		DiffSide:          root.Side,
		StartDiffSide:     root.StartSide,
	}}
	root.ThreadID = t.t.NodeID
	root.InReplyToID = 0
	c := s.addReviewCommentLocked(p, root)
	t.comments = append(t.comments, c)
	p.threads = append(p.threads, t)
	s.nodes[t.t.NodeID] = nodeRef{kind: "PullRequestReviewThread", v: t, pull: p}
	return t, nil
}

func (s *Server) addReviewCommentLocked(p *pullState, c ReviewComment) *ReviewComment {
	if c.ID == 0 {
		c.ID = s.ids.take("review-comment")
	} else {
		s.ids.observe("review-comment", c.ID)
	}
	if c.NodeID == "" {
		c.NodeID = s.ids.node(prefixReviewComment)
	}
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = maxTime(c.CreatedAt, c.LastEditedAt)
	}
	if c.DiffHunk == "" {
		c.DiffHunk = fmt.Sprintf("@@ -%d,3 +%d,4 @@", max(c.OriginalLine-2, 1), max(c.OriginalLine-2, 1))
	}
	out := &c
	p.reviewComments = append(p.reviewComments, out)
	p.pr.UpdatedAt = maxTime(p.pr.UpdatedAt, c.CreatedAt)
	s.nodes[c.NodeID] = nodeRef{kind: "PullRequestReviewComment", v: out, pull: p}
	return out
}

// Reply adds a reply to a thread the way GitHub does for a standalone
// reply: through a new COMMENTED review with an empty body.
func (h *PR) Reply(threadID string, c ReviewComment) (ReviewComment, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	t := h.p.findThread(threadID)
	if t == nil {
		return ReviewComment{}, fmt.Errorf("ghsim: no thread %s on PR #%d", threadID, h.p.pr.Number)
	}
	return *h.s.replyLocked(t, c), nil
}

func (s *Server) replyLocked(t *threadState, c ReviewComment) *ReviewComment {
	p := t.pull
	root := t.comments[0]
	if c.Author.Login == "" && c.Author.ID == 0 {
		c.Author = *s.accounts[s.viewer]
	}
	c.Author = *s.accountLocked(c.Author)
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	if c.ReviewID == 0 {
		rv := s.addReviewLocked(p, Review{Author: c.Author, State: "COMMENTED", SubmittedAt: c.CreatedAt})
		c.ReviewID = rv.ID
	}
	c.InReplyToID = root.ID
	c.ThreadID = t.t.NodeID
	c.Path = root.Path
	c.CommitID = root.CommitID
	if c.OriginalCommitID == "" {
		c.OriginalCommitID = s.headSHALocked(p)
	}
	c.Line, c.OriginalLine = root.Line, root.OriginalLine
	c.StartLine, c.OriginalStartLine = root.StartLine, root.OriginalStartLine
	c.Side, c.StartSide = root.Side, root.StartSide
	c.DiffHunk = root.DiffHunk
	out := s.addReviewCommentLocked(p, c)
	t.comments = append(t.comments, out)
	return out
}

// ResolveThread sets a thread's resolved flag; it reports whether it exists.
func (h *PR) ResolveThread(threadID string, resolved bool) bool {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	t := h.p.findThread(threadID)
	if t == nil {
		return false
	}
	t.t.Resolved = resolved
	return true
}

// SetOutdated marks a thread outdated (its line becomes null, as GitHub
// reports for a thread whose diff position vanished).
func (h *PR) SetOutdated(threadID string, outdated bool) bool {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	t := h.p.findThread(threadID)
	if t == nil {
		return false
	}
	t.t.Outdated = outdated
	return true
}

// Threads returns the review threads with their comments.
func (h *PR) Threads() []Thread {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	out := make([]Thread, len(h.p.threads))
	for i, t := range h.p.threads {
		out[i] = t.snapshot()
	}
	return out
}

// ReviewComments returns every inline comment in creation order.
func (h *PR) ReviewComments() []ReviewComment {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	out := make([]ReviewComment, len(h.p.reviewComments))
	for i, c := range h.p.reviewComments {
		out[i] = *c
	}
	return out
}

// AddReaction seeds a reaction on the PR itself.
func (h *PR) AddReaction(r Reaction) Reaction {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return *h.s.addReactionLocked(&h.p.reactions, r)
}

// AddCommentReaction seeds a reaction on a conversation comment.
func (h *PR) AddCommentReaction(commentID int64, r Reaction) (Reaction, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if h.p.findComment(commentID) == nil {
		return Reaction{}, fmt.Errorf("ghsim: no comment %d on PR #%d", commentID, h.p.pr.Number)
	}
	list := h.p.commentReacts[commentID]
	out := h.s.addReactionLocked(&list, r)
	h.p.commentReacts[commentID] = list
	return *out, nil
}

// Reactions returns the reactions on the PR itself.
func (h *PR) Reactions() []Reaction {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return copyReactions(h.p.reactions)
}

// CommentReactions returns the reactions on a conversation comment.
func (h *PR) CommentReactions(commentID int64) []Reaction {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return copyReactions(h.p.commentReacts[commentID])
}

func copyReactions(in []*Reaction) []Reaction {
	out := make([]Reaction, len(in))
	for i, r := range in {
		out[i] = *r
	}
	return out
}

func (s *Server) addReactionLocked(list *[]*Reaction, r Reaction) *Reaction {
	r.User = *s.accountLocked(r.User)
	if r.ID == 0 {
		r.ID = s.ids.take("reaction")
	}
	if r.NodeID == "" {
		r.NodeID = s.ids.node(prefixReaction)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	// GitHub keeps one reaction per user and content.
	for _, old := range *list {
		if old.User.ID == r.User.ID && old.Content == r.Content {
			return old
		}
	}
	out := &r
	*list = append(*list, out)
	s.nodes[r.NodeID] = nodeRef{kind: "Reaction", v: out}
	return out
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
