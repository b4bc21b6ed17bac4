package ghsim

import (
	"fmt"
	"net/url"
	"strings"
)

// These renderers produce the same key sets as GitHub's OpenAPI examples
// (checked by rest_shapes_test.go), so that a client decoding real payloads
// decodes the simulator's identically.

func (s *Server) userJSON(a *Account) map[string]any {
	api := s.opts.APIURL + "/users/" + url.PathEscape(a.Login)
	html := s.opts.WebURL + "/" + a.Login
	avatar := fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", a.ID)
	if a.Type == TypeBot {
		slug := strings.TrimSuffix(a.Login, "[bot]")
		html = s.opts.WebURL + "/apps/" + slug
		avatar = fmt.Sprintf("https://avatars.githubusercontent.com/in/%d?v=4", a.ID%1000000)
	}
	return map[string]any{
		"login":               a.Login,
		"id":                  a.ID,
		"node_id":             a.NodeID,
		"avatar_url":          avatar,
		"gravatar_id":         "",
		"url":                 api,
		"html_url":            html,
		"followers_url":       api + "/followers",
		"following_url":       api + "/following{/other_user}",
		"gists_url":           api + "/gists{/gist_id}",
		"starred_url":         api + "/starred{/owner}{/repo}",
		"subscriptions_url":   api + "/subscriptions",
		"organizations_url":   api + "/orgs",
		"repos_url":           api + "/repos",
		"events_url":          api + "/events{/privacy}",
		"received_events_url": api + "/received_events",
		"type":                a.Type,
		"user_view_type":      "public",
		"site_admin":          false,
	}
}

// reactionUserJSON is the reactions API's user: a GitHub App's bot user is
// reported with "type": "Bot", as everywhere else in REST (PROTOCOL §5).
func (s *Server) reactionUserJSON(a *Account) map[string]any {
	return s.userJSON(a)
}

func (s *Server) privateUserJSON(a *Account) map[string]any {
	u := s.userJSON(a)
	created := "2011-01-25T18:44:36Z"
	for k, v := range map[string]any{
		"name": nullable(a.Name), "company": nil, "blog": "", "location": nil,
		"email": nil, "hireable": nil, "bio": nil, "twitter_username": nil,
		"notification_email": nil,
		"public_repos":       0, "public_gists": 0, "followers": 0, "following": 0,
		"created_at": created, "updated_at": created,
		"private_gists": 0, "total_private_repos": 0, "owned_private_repos": 0,
		"disk_usage": 0, "collaborators": 0, "two_factor_authentication": true,
		"plan": map[string]any{"name": "free", "space": 976562499, "private_repos": 10000, "collaborators": 0},
	} {
		u[k] = v
	}
	return u
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Server) repoJSON(st *repoState) map[string]any {
	full := st.fullName()
	api := s.opts.APIURL + "/repos/" + full
	web := s.opts.WebURL + "/" + full
	host := strings.TrimPrefix(strings.TrimPrefix(s.opts.WebURL, "https://"), "http://")
	m := map[string]any{
		"id":                          st.id,
		"node_id":                     st.nodeID,
		"name":                        st.name,
		"full_name":                   full,
		"owner":                       s.userJSON(st.owner),
		"private":                     st.private,
		"html_url":                    web,
		"description":                 nil,
		"fork":                        false,
		"url":                         api,
		"git_url":                     "git://" + host + "/" + full + ".git",
		"ssh_url":                     "git@" + host + ":" + full + ".git",
		"clone_url":                   web + ".git",
		"svn_url":                     web,
		"mirror_url":                  nil,
		"homepage":                    nil,
		"language":                    "Go",
		"forks_count":                 0,
		"stargazers_count":            0,
		"watchers_count":              0,
		"size":                        108,
		"default_branch":              st.defaultBranch,
		"open_issues_count":           0,
		"topics":                      []any{},
		"has_issues":                  true,
		"has_projects":                true,
		"has_wiki":                    false,
		"has_pages":                   false,
		"has_downloads":               true,
		"has_discussions":             false,
		"archived":                    false,
		"disabled":                    false,
		"visibility":                  map[bool]string{true: "private", false: "public"}[st.private],
		"pushed_at":                   "2024-01-01T00:00:00Z",
		"created_at":                  "2020-01-01T00:00:00Z",
		"updated_at":                  "2024-01-01T00:00:00Z",
		"permissions":                 map[string]any{"admin": false, "maintain": false, "push": true, "triage": true, "pull": true},
		"allow_rebase_merge":          true,
		"allow_squash_merge":          true,
		"allow_merge_commit":          true,
		"allow_forking":               true,
		"temp_clone_token":            "",
		"forks":                       0,
		"open_issues":                 0,
		"watchers":                    0,
		"license":                     nil,
		"is_template":                 false,
		"web_commit_signoff_required": false,
		"allow_auto_merge":            false,
		"delete_branch_on_merge":      false,
		"network_count":               0,
		"subscribers_count":           0,
		"template_repository":         nil,
	}
	for key, suffix := range map[string]string{
		"archive_url": "/{archive_format}{/ref}", "assignees_url": "/assignees{/user}",
		"blobs_url": "/git/blobs{/sha}", "branches_url": "/branches{/branch}",
		"collaborators_url": "/collaborators{/collaborator}", "comments_url": "/comments{/number}",
		"commits_url": "/commits{/sha}", "compare_url": "/compare/{base}...{head}",
		"contents_url": "/contents/{+path}", "contributors_url": "/contributors",
		"deployments_url": "/deployments", "downloads_url": "/downloads", "events_url": "/events",
		"forks_url": "/forks", "git_commits_url": "/git/commits{/sha}", "git_refs_url": "/git/refs{/sha}",
		"git_tags_url": "/git/tags{/sha}", "issue_comment_url": "/issues/comments{/number}",
		"issue_events_url": "/issues/events{/number}", "issues_url": "/issues{/number}",
		"keys_url": "/keys{/key_id}", "labels_url": "/labels{/name}", "languages_url": "/languages",
		"merges_url": "/merges", "milestones_url": "/milestones{/number}",
		"notifications_url": "/notifications{?since,all,participating}", "pulls_url": "/pulls{/number}",
		"releases_url": "/releases{/id}", "stargazers_url": "/stargazers", "statuses_url": "/statuses/{sha}",
		"subscribers_url": "/subscribers", "subscription_url": "/subscription", "tags_url": "/tags",
		"teams_url": "/teams", "trees_url": "/git/trees{/sha}", "hooks_url": "/hooks",
	} {
		m[key] = api + suffix
	}
	return m
}

func intOrNull(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func strOrNull(v string) any {
	if v == "" {
		return nil
	}
	return v
}

func (s *Server) reactionJSON(r *Reaction) map[string]any {
	return map[string]any{
		"id":         r.ID,
		"node_id":    r.NodeID,
		"user":       s.reactionUserJSON(s.accountLocked(r.User)),
		"content":    r.Content,
		"created_at": stamp(r.CreatedAt),
	}
}
