package ghsim

import (
	"fmt"
	"strings"
)

func (s *Server) checkRunJSON(st *repoState, cr *CheckRun) map[string]any {
	api := fmt.Sprintf("%s/repos/%s/check-runs/%d", s.opts.APIURL, st.fullName(), cr.ID)
	var completed any
	if cr.Status == "completed" {
		completed = stamp(cr.CompletedAt)
	}
	var pulls []any
	for _, p := range st.pulls {
		if p.pr.State == "open" && s.headSHALocked(p) == cr.HeadSHA {
			pulls = append(pulls, map[string]any{
				"url":    fmt.Sprintf("%s/repos/%s/pulls/%d", s.opts.APIURL, st.fullName(), p.pr.Number),
				"id":     p.pr.ID,
				"number": p.pr.Number,
				"head":   map[string]any{"ref": p.pr.Head, "sha": cr.HeadSHA, "repo": s.miniRepoJSON(st)},
				"base":   map[string]any{"ref": p.pr.Base, "sha": s.baseSHALocked(p), "repo": s.miniRepoJSON(st)},
			})
		}
	}
	if pulls == nil {
		pulls = []any{}
	}
	actions := &Account{Login: "github", ID: 9919, Type: TypeOrganization, NodeID: "MDEyOk9yZ2FuaXphdGlvbjk5MTk="}
	return map[string]any{
		"id":           cr.ID,
		"head_sha":     cr.HeadSHA,
		"node_id":      cr.NodeID,
		"external_id":  "",
		"url":          api,
		"html_url":     cr.DetailsURL,
		"details_url":  cr.DetailsURL,
		"status":       cr.Status,
		"conclusion":   strOrNull(cr.Conclusion),
		"started_at":   stamp(cr.StartedAt),
		"completed_at": completed,
		"output": map[string]any{
			"title": nil, "summary": nil, "text": nil,
			"annotations_count": 0, "annotations_url": api + "/annotations",
		},
		"name":        cr.Name,
		"check_suite": map[string]any{"id": cr.ID / 2},
		"app": map[string]any{
			"id": 15368, "slug": "github-actions", "node_id": "MDM6QXBwMTUzNjg=",
			"owner": s.userJSON(actions), "name": "GitHub Actions", "description": "Automate your workflow from idea to production",
			"external_url": "https://help.github.com/en/actions", "html_url": s.opts.WebURL + "/apps/github-actions",
			"created_at": "2018-07-30T09:30:17Z", "updated_at": "2024-04-10T20:33:16Z",
			"permissions": map[string]any{"checks": "write", "contents": "write", "issues": "write", "metadata": "read", "pull_requests": "write", "single_file": "write"},
			"events":      []any{"check_run", "pull_request", "push"},
		},
		"pull_requests": pulls,
	}
}

func (s *Server) miniRepoJSON(st *repoState) map[string]any {
	return map[string]any{"id": st.id, "url": s.opts.APIURL + "/repos/" + st.fullName(), "name": st.name}
}

func (s *Server) statusJSON(st *repoState, cs *CommitStatus) map[string]any {
	return map[string]any{
		"url":         fmt.Sprintf("%s/repos/%s/statuses/%s", s.opts.APIURL, st.fullName(), cs.SHA),
		"avatar_url":  "https://avatars.githubusercontent.com/u/9919?v=4",
		"id":          cs.ID,
		"node_id":     cs.NodeID,
		"state":       cs.State,
		"description": nullable(cs.Description),
		"target_url":  nullable(cs.TargetURL),
		"context":     cs.Context,
		"created_at":  stamp(cs.CreatedAt),
		"updated_at":  stamp(cs.UpdatedAt),
	}
}

// latestStatusesLocked keeps the newest status per context, which is what
// the combined-status endpoint and the GraphQL rollup report.
func latestStatuses(st *repoState, sha string) []*CommitStatus {
	var out []*CommitStatus
	index := map[string]int{}
	for _, cs := range st.statuses {
		if cs.SHA != sha {
			continue
		}
		if i, ok := index[cs.Context]; ok {
			out[i] = cs
			continue
		}
		index[cs.Context] = len(out)
		out = append(out, cs)
	}
	return out
}

// combinedState follows GitHub: failure if any failed or errored, pending if
// any pending or none at all, success otherwise.
func combinedState(list []*CommitStatus) string {
	if len(list) == 0 {
		return "pending"
	}
	state := "success"
	for _, cs := range list {
		switch cs.State {
		case "failure", "error":
			return "failure"
		case "pending":
			state = "pending"
		}
	}
	return state
}

func (s *Server) commitJSON(st *repoState, sha string) map[string]any {
	c := s.commits[sha]
	if c == nil {
		c = &Commit{SHA: sha, Message: "Update", Author: "The Octocat", Date: s.now()}
	}
	api := s.opts.APIURL + "/repos/" + st.fullName()
	person := map[string]any{"name": c.Author, "email": strings.ReplaceAll(strings.ToLower(c.Author), " ", ".") + "@users.noreply.github.com", "date": stamp(c.Date)}
	parents := []any{}
	for _, p := range c.Parents {
		parents = append(parents, map[string]any{
			"sha": p, "url": api + "/commits/" + p, "html_url": s.opts.WebURL + "/" + st.fullName() + "/commit/" + p,
		})
	}
	owner := s.userJSON(st.owner)
	return map[string]any{
		"sha":     sha,
		"node_id": "C_kwDOsim" + short(sha, 12),
		"commit": map[string]any{
			"author":        person,
			"committer":     person,
			"message":       c.Message,
			"tree":          map[string]any{"sha": reverse(sha), "url": api + "/git/trees/" + reverse(sha)},
			"url":           api + "/git/commits/" + sha,
			"comment_count": 0,
			"verification": map[string]any{
				"verified": false, "reason": "unsigned", "signature": nil, "payload": nil, "verified_at": nil,
			},
		},
		"url":          api + "/commits/" + sha,
		"html_url":     s.opts.WebURL + "/" + st.fullName() + "/commit/" + sha,
		"comments_url": api + "/commits/" + sha + "/comments",
		"author":       owner,
		"committer":    owner,
		"parents":      parents,
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

func (s *Server) branchJSON(st *repoState, name, sha string) map[string]any {
	api := s.opts.APIURL + "/repos/" + st.fullName() + "/branches/" + name
	protected := st.protected[name]
	level := "off"
	if protected {
		level = "non_admins"
	}
	return map[string]any{
		"name":   name,
		"commit": s.commitJSON(st, sha),
		"_links": map[string]any{
			"self": api,
			"html": s.opts.WebURL + "/" + st.fullName() + "/tree/" + name,
		},
		"protected": protected,
		"protection": map[string]any{
			"enabled": protected,
			"required_status_checks": map[string]any{
				"enforcement_level": level, "contexts": []any{}, "checks": []any{},
			},
		},
		"protection_url": api + "/protection",
	}
}

func (s *Server) refJSON(st *repoState, ref, sha string) map[string]any {
	api := s.opts.APIURL + "/repos/" + st.fullName()
	return map[string]any{
		"ref":     ref,
		"node_id": "REF_kwDOsim" + strings.ReplaceAll(ref, "/", "_"),
		"url":     api + "/git/" + ref,
		"object": map[string]any{
			"type": "commit",
			"sha":  sha,
			"url":  api + "/git/commits/" + sha,
		},
	}
}
