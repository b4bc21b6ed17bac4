package ghsim

import (
	"net/http"
	"regexp"
	"strings"
)

var hexRef = regexp.MustCompile(`^[0-9a-f]{7,40}$`)

// resolveRefLocked maps a branch name or a (possibly abbreviated) known SHA
// to a full SHA.
func (s *Server) resolveRefLocked(st *repoState, ref string) (string, bool) {
	ref = strings.TrimPrefix(ref, "refs/heads/")
	ref = strings.TrimPrefix(ref, "heads/")
	if sha, ok := st.branches[ref]; ok {
		return sha, true
	}
	if !hexRef.MatchString(ref) {
		return "", false
	}
	for sha := range s.commits {
		if strings.HasPrefix(sha, ref) {
			return sha, true
		}
	}
	return "", false
}

// refCommitLocked resolves the call's repository and {ref}, answering 404
// for an unknown repository and, as GitHub does, 422 with doc for a ref
// that names no commit.
func (s *Server) refCommitLocked(c *call, doc string) (*repoState, string, bool) {
	st := c.repoLocked()
	if st == nil {
		return nil, "", false
	}
	sha, ok := s.resolveRefLocked(st, c.params["ref"])
	if !ok {
		c.sendError(http.StatusUnprocessableEntity, "No commit found for SHA: "+c.params["ref"], doc)
		return nil, "", false
	}
	return st, sha, true
}

func (s *Server) listCheckRuns(c *call) {
	st, sha, ok := s.refCommitLocked(c, "https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference")
	if !ok {
		return
	}
	q := c.r.URL.Query()
	var items []any
	for _, cr := range st.checkRuns {
		if cr.HeadSHA != sha {
			continue
		}
		if n := q.Get("check_name"); n != "" && cr.Name != n {
			continue
		}
		if v := q.Get("status"); v != "" && cr.Status != v {
			continue
		}
		items = append(items, s.checkRunJSON(st, cr))
	}
	items = orEmpty(items)
	total := len(items)
	c.sendJSON(http.StatusOK, map[string]any{"total_count": total, "check_runs": c.pageOf(items)})
}

func (s *Server) combinedStatus(c *call) {
	st, sha, ok := s.refCommitLocked(c, "https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference")
	if !ok {
		return
	}
	latest := latestStatuses(st, sha)
	items := jsonItems(latest, func(cs *CommitStatus) any { return s.statusJSON(st, cs) })
	api := s.opts.APIURL + "/repos/" + st.fullName()
	c.sendJSON(http.StatusOK, map[string]any{
		"state":       combinedState(latest),
		"statuses":    c.pageOf(items),
		"sha":         sha,
		"total_count": len(latest),
		"repository":  s.repoJSON(st),
		"commit_url":  api + "/commits/" + sha,
		"url":         api + "/commits/" + sha + "/status",
	})
}

func (s *Server) getBranch(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	name := c.params["branch"]
	sha, ok := st.branches[name]
	if !ok {
		c.sendError(http.StatusNotFound, "Branch not found", "https://docs.github.com/rest/branches/branches#get-a-branch")
		return
	}
	c.sendJSON(http.StatusOK, s.branchJSON(st, name, sha))
}

func (s *Server) getRef(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	ref := c.params["ref"]
	name, ok := strings.CutPrefix(ref, "heads/")
	sha, found := st.branches[name]
	if !ok || !found {
		c.notFound()
		return
	}
	c.sendJSON(http.StatusOK, s.refJSON(st, "refs/"+ref, sha))
}

func (s *Server) getBranchRules(c *call) {
	st := c.repoLocked()
	if st == nil {
		return
	}
	var items []any
	for _, r := range st.rules[c.params["branch"]] {
		items = append(items, r)
	}
	c.sendJSON(http.StatusOK, c.pageOf(orEmpty(items)))
}
