package ghsim

import (
	"net/url"
	"strings"
)

// route is one REST endpoint. Patterns use GitHub's OpenAPI parameter
// names; a trailing {name...} swallows the rest of the path (branch names
// may contain slashes).
type route struct {
	method  string
	pattern string
	segs    []string
	h       func(*call)
}

func newRoute(method, pattern string, h func(*call)) route {
	return route{method: method, pattern: pattern, segs: strings.Split(strings.Trim(pattern, "/"), "/"), h: h}
}

func (s *Server) restRoutes() []route {
	return []route{
		newRoute("GET", "/user", s.getUser),
		newRoute("GET", "/repos/{owner}/{repo}/pulls", s.listPulls),
		newRoute("POST", "/repos/{owner}/{repo}/pulls", s.createPull),
		newRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", s.getPull),
		newRoute("PATCH", "/repos/{owner}/{repo}/pulls/{pull_number}", s.updatePull),
		newRoute("PUT", "/repos/{owner}/{repo}/pulls/{pull_number}/merge", s.mergePull),
		newRoute("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments", s.listIssueComments),
		newRoute("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", s.createIssueComment),
		newRoute("GET", "/repos/{owner}/{repo}/issues/{issue_number}/reactions", s.listIssueReactions),
		newRoute("GET", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", s.listCommentReactions),
		newRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", s.listReviews),
		newRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/comments", s.listReviewComments),
		newRoute("POST", "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies", s.createReply),
		newRoute("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs", s.listCheckRuns),
		newRoute("GET", "/repos/{owner}/{repo}/commits/{ref}/status", s.combinedStatus),
		newRoute("GET", "/repos/{owner}/{repo}/branches/{branch...}", s.getBranch),
		newRoute("GET", "/repos/{owner}/{repo}/git/ref/{ref...}", s.getRef),
		newRoute("GET", "/repos/{owner}/{repo}/rules/branches/{branch...}", s.getBranchRules),
	}
}

func (rt route) match(path []string) (map[string]string, bool) {
	params := map[string]string{}
	for i, seg := range rt.segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "...}") {
			if i >= len(path) {
				return nil, false
			}
			params[seg[1:len(seg)-4]] = strings.Join(path[i:], "/")
			return params, true
		}
		if i >= len(path) {
			return nil, false
		}
		if strings.HasPrefix(seg, "{") {
			if path[i] == "" {
				return nil, false
			}
			params[seg[1:len(seg)-1]] = path[i]
			continue
		}
		if seg != path[i] {
			return nil, false
		}
	}
	return params, len(path) == len(rt.segs)
}

// serveRESTLocked dispatches a REST call. Unknown paths and methods get
// GitHub's JSON 404, as the real API does for both.
func (s *Server) serveRESTLocked(c *call) {
	escaped, _ := splitPrefix(c.r.URL.EscapedPath())
	raw := strings.Split(strings.Trim(escaped, "/"), "/")
	path := make([]string, len(raw))
	for i, seg := range raw {
		v, err := url.PathUnescape(seg)
		if err != nil {
			v = seg
		}
		path[i] = v
	}
	for _, rt := range s.routes {
		if rt.method != c.r.Method {
			continue
		}
		params, ok := rt.match(path)
		if !ok {
			continue
		}
		c.route = rt.method + " " + rt.pattern
		c.params = params
		if s.rateExhaustedLocked(c, ResourceCore) {
			return
		}
		rt.h(c)
		return
	}
	c.route = c.r.Method + " (unknown)"
	if s.rateExhaustedLocked(c, ResourceCore) {
		return
	}
	c.notFound()
}

// repoLocked resolves {owner}/{repo}, answering 404 when unknown.
func (c *call) repoLocked() *repoState {
	st, ok := c.s.repos[strings.ToLower(c.params["owner"]+"/"+c.params["repo"])]
	if !ok {
		c.notFound()
		return nil
	}
	return st
}

// pullLocked resolves {pull_number} or {issue_number}.
func (c *call) pullLocked() *pullState {
	st := c.repoLocked()
	if st == nil {
		return nil
	}
	n := c.params["pull_number"]
	if n == "" {
		n = c.params["issue_number"]
	}
	num := atoiDefault(n, -1)
	p := st.pull(num)
	if p == nil {
		c.notFound()
		return nil
	}
	return p
}
