package ghsim

import "time"

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
func (h *PR) Number() int {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.p.pr.Number
}

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
	return copies(h.p.comments)
}

func (s *Server) addCommentLocked(p *pullState, c Comment) *Comment {
	if c.Author.Login == "" && c.Author.ID == 0 {
		c.Author = *s.accounts[s.viewer]
	}
	c.Author = *s.accountLocked(c.Author)
	c.ID = s.ids.claim("issue-comment", c.ID)
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
	return copies(h.p.reviews)
}

func (s *Server) addReviewLocked(p *pullState, r Review) *Review {
	r.Author = *s.accountLocked(r.Author)
	r.ID = s.ids.claim("review", r.ID)
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

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
