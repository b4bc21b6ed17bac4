package ghsim

import (
	"net/http"
	"time"
)

func (s *Server) listIssueComments(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	var since time.Time
	if v := c.r.URL.Query().Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			c.validationFailed("https://docs.github.com/rest/issues/comments#list-issue-comments",
				map[string]any{"resource": "IssueComment", "field": "since", "code": "invalid"})
			return
		}
		since = t
	}
	var items []any
	for _, cm := range p.comments {
		if !since.IsZero() && cm.UpdatedAt.Before(since) {
			continue
		}
		items = append(items, s.issueCommentJSON(p, cm))
	}
	c.sendJSON(http.StatusOK, c.pageOf(orEmpty(items)))
}

func (s *Server) createIssueComment(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	body, ok := c.requiredBody("https://docs.github.com/rest/issues/comments#create-an-issue-comment", "IssueComment")
	if !ok {
		return
	}
	cm := s.addCommentLocked(p, Comment{Author: *c.viewer, Body: body})
	s.commentPostedLocked(p, cm)
	c.sendJSON(http.StatusCreated, s.issueCommentJSON(p, cm))
}

func (s *Server) listReviews(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	c.sendJSON(http.StatusOK, c.pageOf(jsonItems(p.reviews, func(r *Review) any { return s.reviewJSON(p, r) })))
}

func (s *Server) listReviewComments(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	c.sendJSON(http.StatusOK, c.pageOf(jsonItems(p.reviewComments, func(rc *ReviewComment) any { return s.reviewCommentJSON(p, rc) })))
}

func (s *Server) createReply(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	target := p.findReviewComment(int64(atoiDefault(c.params["comment_id"], -1)))
	if target == nil {
		c.notFound()
		return
	}
	body, ok := c.requiredBody("https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment", "PullRequestReviewComment")
	if !ok {
		return
	}
	t := p.findThread(target.ThreadID)
	rc := s.replyLocked(t, ReviewComment{Author: *c.viewer, Body: body})
	c.sendJSON(http.StatusCreated, s.reviewCommentJSON(p, rc))
}

func (s *Server) listIssueReactions(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	c.sendJSON(http.StatusOK, c.pageOf(s.reactionItems(c, p.reactions)))
}

func (s *Server) listCommentReactions(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	id := int64(atoiDefault(c.params["comment_id"], -1))
	for _, p := range st.pulls {
		if p.findComment(id) != nil {
			c.sendJSON(http.StatusOK, c.pageOf(s.reactionItems(c, p.commentReacts[id])))
			return
		}
	}
	c.notFound()
}

func (s *Server) reactionItems(c *call, list []*Reaction) []any {
	content := c.r.URL.Query().Get("content")
	var items []any
	for _, r := range list {
		if content != "" && r.Content != content {
			continue
		}
		items = append(items, s.reactionJSON(r))
	}
	return orEmpty(items)
}
