package ghsim

import "time"

// Reactions through GraphQL. Reaction.user is typed User, and a User field
// cannot hold a Bot: GitHub added ReactionGroup.reactors (the Reactor union:
// Bot, Mannequin, Organization, User) precisely so that bots' reactions can
// be read, each edge with its reactedAt. Both are served as GitHub types
// them, so a client that reads a bot's 👀 through Reaction.user sees null
// here, as it would on github.com.

// reactionOrder is the order of ReactionContent in GitHub's schema, which
// is the order reactionGroups lists its groups in.
var reactionOrder = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

// reactionGroup is one content's reactions on one subject.
type reactionGroup struct {
	content string // REST spelling
	list    []*Reaction
}

func groupReactions(list []*Reaction) []object {
	var out []object
	for _, content := range reactionOrder {
		g := &reactionGroup{content: content}
		for _, r := range list {
			if r.Content == content {
				g.list = append(g.list, r)
			}
		}
		if len(g.list) > 0 {
			out = append(out, object{typ: "ReactionGroup", v: g})
		}
	}
	return out
}

// reactionGroupsOf returns the reactions of a Reactable the simulator keeps
// (the PR itself and its conversation comments; reviews and review
// comments carry none).
func reactionGroupsOf(obj object) []object {
	switch v := obj.v.(type) {
	case *pullState:
		return groupReactions(v.reactions)
	case commentObj:
		return groupReactions(v.p.commentReacts[v.c.ID])
	}
	return []object{}
}

func init() {
	groups := map[string]resolver{
		"reactionGroups": func(f *fieldCtx) (any, error) { return reactionGroupsOf(f.obj), nil },
	}
	for _, typ := range []string{"PullRequest", "IssueComment", "PullRequestReview", "PullRequestReviewComment"} {
		register(typ, groups)
	}

	register("ReactionGroup", map[string]resolver{
		"content":          func(f *fieldCtx) (any, error) { return reactionEnum(f.obj.v.(*reactionGroup).content), nil },
		"createdAt":        func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(*reactionGroup).list[0].CreatedAt), nil },
		"viewerHasReacted": func(f *fieldCtx) (any, error) { return f.obj.v.(*reactionGroup).has(f.ex.c.viewer.ID), nil },
		"reactors": func(f *fieldCtx) (any, error) {
			g := f.obj.v.(*reactionGroup)
			items := make([]object, len(g.list))
			at := make([]any, len(g.list))
			for i, r := range g.list {
				items[i] = actor(f.ex.s.accountLocked(r.User)).(object)
				at[i] = r.CreatedAt
			}
			conn, err := f.paginate("ReactorConnection", items)
			if err != nil {
				return nil, err
			}
			conn.(object).v.(*connection).edgeData = at
			return conn, nil
		},
	})

	register("ReactorEdge", map[string]resolver{
		"cursor": edgeFields["cursor"],
		"node":   edgeFields["node"],
		"reactedAt": func(f *fieldCtx) (any, error) {
			return stamp(f.obj.v.(*edge).data.(time.Time)), nil
		},
	})
}

func (g *reactionGroup) has(accountID int64) bool {
	for _, r := range g.list {
		if r.User.ID == accountID {
			return true
		}
	}
	return false
}
