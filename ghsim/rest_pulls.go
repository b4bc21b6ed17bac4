package ghsim

import (
	"net/http"
	"sort"
	"strings"
)

const docPulls = "https://docs.github.com/rest/pulls/pulls"

func (s *Server) getUser(c *call) {
	c.sendJSON(http.StatusOK, s.privateUserJSON(c.viewer))
}

func (s *Server) getPull(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	c.sendJSON(http.StatusOK, s.pullJSON(p, true))
}

// listPulls supports state, head ("owner:branch"), base, sort=created and
// direction, newest first by default like GitHub.
func (s *Server) listPulls(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	q := c.r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	headOwner, headRef := "", q.Get("head")
	if o, ref, ok := strings.Cut(headRef, ":"); ok {
		headOwner, headRef = o, ref
	}
	var list []*pullState
	for _, p := range st.pulls {
		if state != "all" && p.pr.State != state {
			continue
		}
		if headRef != "" {
			if p.pr.Head != headRef {
				continue
			}
			owner := st.owner.Login
			if p.pr.HeadRepo != "" {
				owner, _, _ = strings.Cut(p.pr.HeadRepo, "/")
			}
			if headOwner != "" && !strings.EqualFold(owner, headOwner) {
				continue
			}
		}
		if b := q.Get("base"); b != "" && p.pr.Base != b {
			continue
		}
		list = append(list, p)
	}
	asc := q.Get("direction") == "asc"
	sort.SliceStable(list, func(i, j int) bool {
		if asc {
			return list[i].pr.Number < list[j].pr.Number
		}
		return list[i].pr.Number > list[j].pr.Number
	})
	items := make([]any, len(list))
	for i, p := range list {
		items[i] = s.pullJSON(p, false)
	}
	c.sendJSON(http.StatusOK, c.pageOf(items))
}

type createPullBody struct {
	Title string `json:"title"`
	Head  string `json:"head"`
	Base  string `json:"base"`
	Body  string `json:"body"`
	Draft bool   `json:"draft"`
}

func (s *Server) createPull(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	var in createPullBody
	if !c.decodeBody(&in) {
		return
	}
	p, errs := s.openPullLocked(st, c.viewer, in)
	if errs != nil {
		c.validationFailed(docPulls+"#create-a-pull-request", errs...)
		return
	}
	c.sendJSON(http.StatusCreated, s.pullJSON(p, true))
}

// openPullLocked is the shared create path of REST and GraphQL. It returns
// GitHub's validation errors instead of a PR when the request is refused.
func (s *Server) openPullLocked(st *repoState, author *Account, in createPullBody) (*pullState, []map[string]any) {
	invalid := func(field string) []map[string]any {
		return []map[string]any{{"resource": "PullRequest", "field": field, "code": "invalid"}}
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, []map[string]any{{"resource": "PullRequest", "field": "title", "code": "missing_field"}}
	}
	headOwner, head := st.owner.Login, in.Head
	if o, ref, ok := strings.Cut(in.Head, ":"); ok {
		headOwner, head = o, ref
	}
	if !strings.EqualFold(headOwner, st.owner.Login) {
		return nil, invalid("head")
	}
	if _, ok := st.branches[head]; !ok || head == "" {
		return nil, invalid("head")
	}
	if _, ok := st.branches[in.Base]; !ok || in.Base == "" {
		return nil, invalid("base")
	}
	if st.branches[head] == st.branches[in.Base] {
		return nil, []map[string]any{{"resource": "PullRequest", "code": "custom",
			"message": "No commits between " + in.Base + " and " + head}}
	}
	for _, p := range st.pulls {
		if p.pr.State == "open" && p.pr.HeadRepo == "" && p.pr.Head == head && p.pr.Base == in.Base {
			return nil, []map[string]any{{"resource": "PullRequest", "code": "custom",
				"message": "A pull request already exists for " + st.owner.Login + ":" + head + "."}}
		}
	}
	p, err := s.createPullLocked(st, PullRequest{
		Title: in.Title, Body: in.Body, Author: *author, Head: head, Base: in.Base, Draft: in.Draft,
	})
	if err != nil {
		return nil, []map[string]any{{"resource": "PullRequest", "code": "custom", "message": err.Error()}}
	}
	return p, nil
}
