package ghsim

import "strings"

// implements lists, for each object type the simulator returns, the
// interfaces GitHub's schema gives it (checked against schema.graphql by
// graphql_schema_test.go), so fragments on interfaces match as on GitHub.
var implements = map[string][]string{
	"User":                     {"Actor", "Node", "PackageOwner", "ProfileOwner", "ProjectOwner", "ProjectV2Owner", "ProjectV2Recent", "RepositoryDiscussionAuthor", "RepositoryDiscussionCommentAuthor", "RepositoryOwner", "Sponsorable", "UniformResourceLocatable"},
	"Bot":                      {"Actor", "Node", "UniformResourceLocatable"},
	"Organization":             {"Actor", "AnnouncementBannerI", "MemberStatusable", "Node", "PackageOwner", "ProfileOwner", "ProjectOwner", "ProjectV2Owner", "ProjectV2Recent", "RepositoryDiscussionAuthor", "RepositoryDiscussionCommentAuthor", "RepositoryOwner", "Sponsorable", "UniformResourceLocatable"},
	"Repository":               {"Node", "PackageOwner", "ProjectOwner", "ProjectV2Recent", "RepositoryInfo", "Starrable", "Subscribable", "UniformResourceLocatable"},
	"PullRequest":              {"Assignable", "Closable", "Comment", "Labelable", "Lockable", "Node", "ProjectV2Owner", "Reactable", "RepositoryNode", "Subscribable", "UniformResourceLocatable", "Updatable", "UpdatableComment"},
	"IssueComment":             {"Comment", "Deletable", "Minimizable", "Node", "Reactable", "RepositoryNode", "Updatable", "UpdatableComment"},
	"PullRequestReview":        {"Comment", "Deletable", "Minimizable", "Node", "Reactable", "RepositoryNode", "Updatable", "UpdatableComment"},
	"PullRequestReviewComment": {"Comment", "Deletable", "Minimizable", "Node", "Reactable", "RepositoryNode", "Updatable", "UpdatableComment"},
	"PullRequestReviewThread":  {"Node"},
	"PullRequestCommit":        {"Node", "UniformResourceLocatable"},
	"Commit":                   {"GitObject", "Node", "Subscribable", "UniformResourceLocatable"},
	"CheckRun":                 {"Node", "RequirableByPullRequest", "UniformResourceLocatable"},
	"StatusContext":            {"Node", "RequirableByPullRequest"},
	"StatusCheckRollup":        {"Node"},
	"Reaction":                 {"Node"},
	"ReactionGroup":            {},
	"Ref":                      {"Node"},
}

// unions lists the members of the unions the simulator returns.
var unions = map[string][]string{
	"StatusCheckRollupContext": {"CheckRun", "StatusContext"},
	"Reactor":                  {"Bot", "Mannequin", "Organization", "User"},
}

func typeMatches(typ, cond string) bool {
	if typ == cond {
		return true
	}
	for _, i := range implements[typ] {
		if i == cond {
			return true
		}
	}
	for _, m := range unions[cond] {
		if m == typ {
			return true
		}
	}
	return false
}

// resolvers maps (type name, field name) to a resolver. Connection, Edge and
// payload types are handled generically in lookupResolver.
var resolvers = map[string]map[string]resolver{}

func register(typ string, fields map[string]resolver) {
	m := resolvers[typ]
	if m == nil {
		m = map[string]resolver{}
		resolvers[typ] = m
	}
	for k, v := range fields {
		m[k] = v
	}
}

func lookupResolver(obj object, field string) resolver {
	if m, ok := resolvers[obj.typ]; ok {
		return m[field]
	}
	switch v := obj.v.(type) {
	case *connection:
		if fn := connectionFields[field]; fn != nil {
			return fn
		}
		if _, ok := v.extra[field]; ok {
			return func(f *fieldCtx) (any, error) { return f.obj.v.(*connection).extra[field], nil }
		}
	case *edge:
		return edgeFields[field]
	case *pageInfo:
		return pageInfoFields[field]
	case payload:
		if _, ok := v[field]; ok {
			return func(f *fieldCtx) (any, error) { return f.obj.v.(payload)[field], nil }
		}
	}
	return nil
}

// payload is a mutation result object: its fields are precomputed.
type payload map[string]any

// --- enum spellings ------------------------------------------------------

var reactionContent = map[string]string{
	"+1": "THUMBS_UP", "-1": "THUMBS_DOWN", "laugh": "LAUGH", "hooray": "HOORAY",
	"confused": "CONFUSED", "heart": "HEART", "rocket": "ROCKET", "eyes": "EYES",
}

func reactionEnum(rest string) string {
	if e, ok := reactionContent[rest]; ok {
		return e
	}
	return strings.ToUpper(rest)
}

func pullStateEnum(p *PullRequest) string {
	switch {
	case p.Merged:
		return "MERGED"
	case p.State == "closed":
		return "CLOSED"
	}
	return "OPEN"
}

func upperOrNull(v string) any {
	if v == "" {
		return nil
	}
	return strings.ToUpper(v)
}

// graphQLLogin is how GraphQL spells an account's login: a GitHub App's bot
// user is "chatgpt-codex-connector" there, not "...[bot]" as in REST.
func graphQLLogin(a *Account) string {
	if a.Type == TypeBot {
		return strings.TrimSuffix(a.Login, "[bot]")
	}
	return a.Login
}
