package ghsim

import "fmt"

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
	c.ID = s.ids.claim("review-comment", c.ID)
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
	return copies(h.p.reviewComments)
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
	return copies(h.p.reactions)
}

// CommentReactions returns the reactions on a conversation comment.
func (h *PR) CommentReactions(commentID int64) []Reaction {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return copies(h.p.commentReacts[commentID])
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
