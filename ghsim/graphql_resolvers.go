package ghsim

import (
	"fmt"
	"strings"
)

// Object values behind the GraphQL types.
type (
	commentObj struct {
		p *pullState
		c *Comment
	}
	reviewObj struct {
		p *pullState
		r *Review
	}
	reviewCmtObj struct {
		p *pullState
		c *ReviewComment
	}
	commitObj struct {
		st  *repoState
		sha string
	}
	pullCommitObj struct {
		p   *pullState
		sha string
	}
	checkObj struct {
		st *repoState
		cr *CheckRun
	}
	statusObj struct {
		st *repoState
		cs *CommitStatus
	}
	refObj struct {
		st        *repoState
		name, sha string
	}
)

func actor(a *Account) any {
	if a == nil {
		return nil
	}
	return object{typ: a.Type, v: a}
}

// nodeObject turns a node id's target into a typed object.
func (s *Server) nodeObject(ref nodeRef) object {
	switch v := ref.v.(type) {
	case *Comment:
		return object{typ: "IssueComment", v: commentObj{ref.pull, v}}
	case *Review:
		return object{typ: "PullRequestReview", v: reviewObj{ref.pull, v}}
	case *ReviewComment:
		return object{typ: "PullRequestReviewComment", v: reviewCmtObj{ref.pull, v}}
	case *CheckRun:
		return object{typ: "CheckRun", v: checkObj{s.repoOfCheck(v), v}}
	case *CommitStatus:
		return object{typ: "StatusContext", v: statusObj{s.repoOfStatus(v), v}}
	}
	return object{typ: ref.kind, v: ref.v}
}

func (s *Server) repoOfCheck(cr *CheckRun) *repoState {
	for _, st := range s.repos {
		for _, c := range st.checkRuns {
			if c == cr {
				return st
			}
		}
	}
	return nil
}

func (s *Server) repoOfStatus(cs *CommitStatus) *repoState {
	for _, st := range s.repos {
		for _, c := range st.statuses {
			if c == cs {
				return st
			}
		}
	}
	return nil
}

func init() {
	register("Query", map[string]resolver{
		"viewer": func(f *fieldCtx) (any, error) { return actor(f.ex.c.viewer), nil },
		"repository": func(f *fieldCtx) (any, error) {
			owner, name := argString(f.args, "owner"), argString(f.args, "name")
			st, ok := f.ex.s.repos[strings.ToLower(owner+"/"+name)]
			if !ok {
				return nil, errorf("NOT_FOUND", "Could not resolve to a Repository with the name '%s/%s'.", owner, name)
			}
			return object{typ: "Repository", v: st}, nil
		},
		"user": func(f *fieldCtx) (any, error) {
			login := argString(f.args, "login")
			for _, id := range f.ex.s.accountOrder {
				if a := f.ex.s.accounts[id]; a.Type == TypeUser && strings.EqualFold(a.Login, login) {
					return object{typ: TypeUser, v: a}, nil
				}
			}
			return nil, errorf("NOT_FOUND", "Could not resolve to a User with the login of '%s'.", login)
		},
		"node": func(f *fieldCtx) (any, error) {
			id := argString(f.args, "id")
			ref, ok := f.ex.s.nodes[id]
			if !ok {
				return nil, errorf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
			}
			return f.ex.s.nodeObject(ref), nil
		},
		"nodes": func(f *fieldCtx) (any, error) {
			var out []object
			for _, id := range argStrings(f.args, "ids") {
				ref, ok := f.ex.s.nodes[id]
				if !ok {
					return nil, errorf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
				}
				out = append(out, f.ex.s.nodeObject(ref))
			}
			return out, nil
		},
		"rateLimit": func(f *fieldCtx) (any, error) { return object{typ: "RateLimit"}, nil },
	})
	register("RateLimit", map[string]resolver{
		"cost":      func(f *fieldCtx) (any, error) { return max(f.ex.cost, 1), nil },
		"limit":     func(f *fieldCtx) (any, error) { return f.ex.graphqlBucket().limit, nil },
		"remaining": func(f *fieldCtx) (any, error) { return f.ex.graphqlBucket().remaining(), nil },
		"used":      func(f *fieldCtx) (any, error) { return f.ex.graphqlBucket().used, nil },
		"resetAt":   func(f *fieldCtx) (any, error) { return stamp(f.ex.graphqlBucket().reset), nil },
		"nodeCount": func(f *fieldCtx) (any, error) { return f.ex.nodeCount, nil },
	})

	accountCommon := map[string]resolver{
		"id":         func(f *fieldCtx) (any, error) { return f.obj.v.(*Account).NodeID, nil },
		"login":      func(f *fieldCtx) (any, error) { return graphQLLogin(f.obj.v.(*Account)), nil },
		"databaseId": func(f *fieldCtx) (any, error) { return f.obj.v.(*Account).ID, nil },
		"url":        func(f *fieldCtx) (any, error) { return f.ex.s.accountURL(f.obj.v.(*Account)), nil },
		"resourcePath": func(f *fieldCtx) (any, error) {
			return strings.TrimPrefix(f.ex.s.accountURL(f.obj.v.(*Account)), f.ex.s.opts.WebURL), nil
		},
		"avatarUrl": func(f *fieldCtx) (any, error) {
			return fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", f.obj.v.(*Account).ID), nil
		},
		"createdAt": func(f *fieldCtx) (any, error) { return "2011-01-25T18:44:36Z", nil },
	}
	register(TypeBot, accountCommon)
	register(TypeUser, accountCommon)
	register(TypeUser, map[string]resolver{
		"name":  func(f *fieldCtx) (any, error) { return nullable(f.obj.v.(*Account).Name), nil },
		"email": func(f *fieldCtx) (any, error) { return "", nil },
	})
	register(TypeOrganization, accountCommon)
	register(TypeOrganization, map[string]resolver{
		"name": func(f *fieldCtx) (any, error) { return nullable(f.obj.v.(*Account).Name), nil },
	})

	register("Repository", map[string]resolver{
		"id":            func(f *fieldCtx) (any, error) { return f.obj.v.(*repoState).nodeID, nil },
		"databaseId":    func(f *fieldCtx) (any, error) { return f.obj.v.(*repoState).id, nil },
		"name":          func(f *fieldCtx) (any, error) { return f.obj.v.(*repoState).name, nil },
		"nameWithOwner": func(f *fieldCtx) (any, error) { return f.obj.v.(*repoState).fullName(), nil },
		"owner":         func(f *fieldCtx) (any, error) { return actor(f.obj.v.(*repoState).owner), nil },
		"url":           func(f *fieldCtx) (any, error) { return f.ex.s.opts.WebURL + "/" + f.obj.v.(*repoState).fullName(), nil },
		"isPrivate":     func(f *fieldCtx) (any, error) { return f.obj.v.(*repoState).private, nil },
		"isFork":        func(f *fieldCtx) (any, error) { return false, nil },
		"visibility": func(f *fieldCtx) (any, error) {
			if f.obj.v.(*repoState).private {
				return "PRIVATE", nil
			}
			return "PUBLIC", nil
		},
		"defaultBranchRef": func(f *fieldCtx) (any, error) {
			st := f.obj.v.(*repoState)
			sha, ok := st.branches[st.defaultBranch]
			if !ok {
				return nil, nil
			}
			return object{typ: "Ref", v: refObj{st, st.defaultBranch, sha}}, nil
		},
		"ref": func(f *fieldCtx) (any, error) {
			st := f.obj.v.(*repoState)
			q := argString(f.args, "qualifiedName")
			name := strings.TrimPrefix(q, "refs/heads/")
			sha, ok := st.branches[name]
			if !ok {
				return nil, nil
			}
			return object{typ: "Ref", v: refObj{st, name, sha}}, nil
		},
		"pullRequest": func(f *fieldCtx) (any, error) {
			st := f.obj.v.(*repoState)
			n, _ := argInt(f.args, "number")
			p := st.pull(n)
			if p == nil {
				return nil, errorf("NOT_FOUND", "Could not resolve to a PullRequest with the number of %d.", n)
			}
			return object{typ: "PullRequest", v: p}, nil
		},
		"pullRequests": func(f *fieldCtx) (any, error) {
			st := f.obj.v.(*repoState)
			states := argStrings(f.args, "states")
			head, base := argString(f.args, "headRefName"), argString(f.args, "baseRefName")
			var items []object
			for _, p := range st.pulls {
				if head != "" && p.pr.Head != head {
					continue
				}
				if base != "" && p.pr.Base != base {
					continue
				}
				if len(states) > 0 && !contains(states, pullStateEnum(&p.pr)) {
					continue
				}
				items = append(items, object{typ: "PullRequest", v: p})
			}
			return f.paginate("PullRequestConnection", items)
		},
	})

	register("Ref", map[string]resolver{
		"id": func(f *fieldCtx) (any, error) {
			r := f.obj.v.(refObj)
			return "REF_kwDOsim" + r.st.nodeID + r.name, nil
		},
		"name":       func(f *fieldCtx) (any, error) { return f.obj.v.(refObj).name, nil },
		"prefix":     func(f *fieldCtx) (any, error) { return "refs/heads/", nil },
		"repository": func(f *fieldCtx) (any, error) { return object{typ: "Repository", v: f.obj.v.(refObj).st}, nil },
		"target": func(f *fieldCtx) (any, error) {
			r := f.obj.v.(refObj)
			return object{typ: "Commit", v: commitObj{r.st, r.sha}}, nil
		},
	})
}

func (ex *executor) graphqlBucket() *rateBucket {
	return ex.s.bucketLocked(ResourceGraphQL, ex.s.now())
}

func (s *Server) accountURL(a *Account) string {
	if a.Type == TypeBot {
		return s.opts.WebURL + "/apps/" + strings.TrimSuffix(a.Login, "[bot]")
	}
	return s.opts.WebURL + "/" + a.Login
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
