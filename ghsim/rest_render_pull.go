package ghsim

import (
	"fmt"
	"strings"
)

// pullJSON renders a pull request; full adds the fields only GET
// /pulls/{pull_number} and POST /pulls carry (mergeable, counts...).
func (s *Server) pullJSON(p *pullState, full bool) map[string]any {
	pr := p.pr
	st := p.repo
	api := fmt.Sprintf("%s/repos/%s/pulls/%d", s.opts.APIURL, st.fullName(), pr.Number)
	issue := fmt.Sprintf("%s/repos/%s/issues/%d", s.opts.APIURL, st.fullName(), pr.Number)
	web := fmt.Sprintf("%s/%s/pull/%d", s.opts.WebURL, st.fullName(), pr.Number)
	head := s.headSHALocked(p)
	headRepo := st
	if pr.HeadRepo != "" {
		if hr, ok := s.repos[strings.ToLower(pr.HeadRepo)]; ok {
			headRepo = hr
		}
	}
	var closedAt any
	if pr.State == "closed" {
		closedAt = stamp(pr.UpdatedAt)
	}
	var mergedAt any
	if pr.Merged {
		mergedAt = stamp(pr.UpdatedAt)
	}
	statuses := s.opts.APIURL + "/repos/" + st.fullName() + "/statuses/" + head
	m := map[string]any{
		"url":                 api,
		"id":                  pr.ID,
		"node_id":             pr.NodeID,
		"html_url":            web,
		"diff_url":            web + ".diff",
		"patch_url":           web + ".patch",
		"issue_url":           issue,
		"commits_url":         api + "/commits",
		"review_comments_url": api + "/comments",
		"review_comment_url":  s.opts.APIURL + "/repos/" + st.fullName() + "/pulls/comments{/number}",
		"comments_url":        issue + "/comments",
		"statuses_url":        statuses,
		"number":              pr.Number,
		"state":               pr.State,
		"locked":              false,
		"title":               pr.Title,
		"user":                s.userJSON(s.accountLocked(pr.Author)),
		"body":                nullable(pr.Body),
		"labels":              []any{},
		"milestone":           nil,
		"active_lock_reason":  nil,
		"created_at":          stamp(pr.CreatedAt),
		"updated_at":          stamp(pr.UpdatedAt),
		"closed_at":           closedAt,
		"merged_at":           mergedAt,
		"merge_commit_sha":    nil,
		"assignee":            nil,
		"assignees":           []any{},
		"requested_reviewers": []any{},
		"requested_teams":     []any{},
		"head": map[string]any{
			"label": headRepo.owner.Login + ":" + pr.Head,
			"ref":   pr.Head,
			"sha":   head,
			"user":  s.userJSON(headRepo.owner),
			"repo":  s.repoJSON(headRepo),
		},
		"base": map[string]any{
			"label": st.owner.Login + ":" + pr.Base,
			"ref":   pr.Base,
			"sha":   s.baseSHALocked(p),
			"user":  s.userJSON(st.owner),
			"repo":  s.repoJSON(st),
		},
		"_links": map[string]any{
			"self":            href(api),
			"html":            href(web),
			"issue":           href(issue),
			"comments":        href(issue + "/comments"),
			"review_comments": href(api + "/comments"),
			"review_comment":  href(s.opts.APIURL + "/repos/" + st.fullName() + "/pulls/comments{/number}"),
			"commits":         href(api + "/commits"),
			"statuses":        href(statuses),
		},
		"author_association": s.associationLocked(st, s.accountLocked(pr.Author)),
		"auto_merge":         nil,
		"draft":              pr.Draft,
	}
	if full {
		var mergeable any
		switch pr.Mergeable {
		case "MERGEABLE":
			mergeable = true
		case "CONFLICTING":
			mergeable = false
		}
		m["merged"] = pr.Merged
		m["mergeable"] = mergeable
		m["rebaseable"] = mergeable
		m["mergeable_state"] = strings.ToLower(pr.MergeStateStatus)
		m["merged_by"] = nil
		m["comments"] = len(p.comments)
		m["review_comments"] = len(p.reviewComments)
		m["maintainer_can_modify"] = false
		m["commits"] = len(p.commits)
		m["additions"] = 10
		m["deletions"] = 2
		m["changed_files"] = 1
	}
	return m
}

func href(u string) map[string]any { return map[string]any{"href": u} }

func (s *Server) issueCommentJSON(p *pullState, c *Comment) map[string]any {
	st := p.repo
	api := fmt.Sprintf("%s/repos/%s/issues/comments/%d", s.opts.APIURL, st.fullName(), c.ID)
	return map[string]any{
		"id":                       c.ID,
		"node_id":                  c.NodeID,
		"url":                      api,
		"html_url":                 fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", s.opts.WebURL, st.fullName(), p.pr.Number, c.ID),
		"body":                     c.Body,
		"user":                     s.userJSON(s.accountLocked(c.Author)),
		"created_at":               stamp(c.CreatedAt),
		"updated_at":               stamp(c.UpdatedAt),
		"issue_url":                fmt.Sprintf("%s/repos/%s/issues/%d", s.opts.APIURL, st.fullName(), p.pr.Number),
		"author_association":       c.AuthorAssociation,
		"performed_via_github_app": nil,
		"reactions":                s.reactionRollup(api, p.commentReacts[c.ID]),
		"pin":                      nil,
		"minimized":                nil,
	}
}

func (s *Server) reactionRollup(api string, list []*Reaction) map[string]any {
	counts := map[string]int{"+1": 0, "-1": 0, "laugh": 0, "hooray": 0, "confused": 0, "heart": 0, "rocket": 0, "eyes": 0}
	for _, r := range list {
		counts[r.Content]++
	}
	m := map[string]any{"url": api + "/reactions", "total_count": len(list)}
	for k, v := range counts {
		m[k] = v
	}
	return m
}

func (s *Server) reviewJSON(p *pullState, r *Review) map[string]any {
	st := p.repo
	web := fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", s.opts.WebURL, st.fullName(), p.pr.Number, r.ID)
	api := fmt.Sprintf("%s/repos/%s/pulls/%d", s.opts.APIURL, st.fullName(), p.pr.Number)
	var submitted any
	if r.State != "PENDING" {
		submitted = stamp(r.SubmittedAt)
	}
	return map[string]any{
		"id":                 r.ID,
		"node_id":            r.NodeID,
		"user":               s.userJSON(s.accountLocked(r.Author)),
		"body":               r.Body,
		"state":              r.State,
		"html_url":           web,
		"pull_request_url":   api,
		"author_association": s.associationLocked(st, s.accountLocked(r.Author)),
		"_links":             map[string]any{"html": href(web), "pull_request": href(api)},
		"submitted_at":       submitted,
		"commit_id":          r.CommitID,
	}
}

func (s *Server) reviewCommentJSON(p *pullState, c *ReviewComment) map[string]any {
	st := p.repo
	api := fmt.Sprintf("%s/repos/%s/pulls/comments/%d", s.opts.APIURL, st.fullName(), c.ID)
	web := fmt.Sprintf("%s/%s/pull/%d#discussion_r%d", s.opts.WebURL, st.fullName(), p.pr.Number, c.ID)
	prAPI := fmt.Sprintf("%s/repos/%s/pulls/%d", s.opts.APIURL, st.fullName(), p.pr.Number)
	outdated := false
	if t := p.findThread(c.ThreadID); t != nil {
		outdated = t.t.Outdated
	}
	line, startLine := intOrNull(c.Line), intOrNull(c.StartLine)
	if outdated {
		line, startLine = nil, nil
	}
	m := map[string]any{
		"url":                    api,
		"pull_request_review_id": c.ReviewID,
		"id":                     c.ID,
		"node_id":                c.NodeID,
		"diff_hunk":              c.DiffHunk,
		"path":                   c.Path,
		"position":               line,
		"original_position":      intOrNull(c.OriginalLine),
		"commit_id":              c.CommitID,
		"original_commit_id":     c.OriginalCommitID,
		"user":                   s.userJSON(s.accountLocked(c.Author)),
		"body":                   c.Body,
		"created_at":             stamp(c.CreatedAt),
		"updated_at":             stamp(c.UpdatedAt),
		"html_url":               web,
		"pull_request_url":       prAPI,
		"author_association":     s.associationLocked(st, s.accountLocked(c.Author)),
		"_links":                 map[string]any{"self": href(api), "html": href(web), "pull_request": href(prAPI)},
		"start_line":             startLine,
		"original_start_line":    intOrNull(c.OriginalStartLine),
		"start_side":             strOrNull(c.StartSide),
		"line":                   line,
		"original_line":          intOrNull(c.OriginalLine),
		"side":                   c.Side,
		"subject_type":           "line",
		"reactions":              s.reactionRollup(api, nil),
	}
	if c.InReplyToID != 0 {
		m["in_reply_to_id"] = c.InReplyToID
	}
	return m
}
