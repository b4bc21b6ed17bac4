package ghsim

import (
	"fmt"
	"time"
)

func timeOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stamp(t)
}

func pullOf(f *fieldCtx) *pullState { return f.obj.v.(*pullState) }

func init() {
	register("PullRequest", map[string]resolver{
		"id":         func(f *fieldCtx) (any, error) { return pullOf(f).pr.NodeID, nil },
		"databaseId": func(f *fieldCtx) (any, error) { return pullOf(f).pr.ID, nil },
		"fullDatabaseId": func(f *fieldCtx) (any, error) {
			return fmt.Sprint(pullOf(f).pr.ID), nil
		},
		"number": func(f *fieldCtx) (any, error) { return pullOf(f).pr.Number, nil },
		"url": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			return fmt.Sprintf("%s/%s/pull/%d", f.ex.s.opts.WebURL, p.repo.fullName(), p.pr.Number), nil
		},
		"permalink": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			return fmt.Sprintf("%s/%s/pull/%d", f.ex.s.opts.WebURL, p.repo.fullName(), p.pr.Number), nil
		},
		"title":             func(f *fieldCtx) (any, error) { return pullOf(f).pr.Title, nil },
		"body":              func(f *fieldCtx) (any, error) { return pullOf(f).pr.Body, nil },
		"state":             func(f *fieldCtx) (any, error) { return pullStateEnum(&pullOf(f).pr), nil },
		"closed":            func(f *fieldCtx) (any, error) { return pullOf(f).pr.State == "closed", nil },
		"merged":            func(f *fieldCtx) (any, error) { return pullOf(f).pr.Merged, nil },
		"isDraft":           func(f *fieldCtx) (any, error) { return pullOf(f).pr.Draft, nil },
		"locked":            func(f *fieldCtx) (any, error) { return false, nil },
		"isCrossRepository": func(f *fieldCtx) (any, error) { return pullOf(f).pr.HeadRepo != "", nil },
		"baseRefName":       func(f *fieldCtx) (any, error) { return pullOf(f).pr.Base, nil },
		"baseRefOid":        func(f *fieldCtx) (any, error) { return f.ex.s.baseSHALocked(pullOf(f)), nil },
		"headRefName":       func(f *fieldCtx) (any, error) { return pullOf(f).pr.Head, nil },
		"headRefOid":        func(f *fieldCtx) (any, error) { return f.ex.s.headSHALocked(pullOf(f)), nil },
		"mergeable":         func(f *fieldCtx) (any, error) { return pullOf(f).pr.Mergeable, nil },
		"mergeStateStatus":  func(f *fieldCtx) (any, error) { return pullOf(f).pr.MergeStateStatus, nil },
		"reviewDecision":    func(f *fieldCtx) (any, error) { return nullable(pullOf(f).pr.ReviewDecision), nil },
		"author": func(f *fieldCtx) (any, error) {
			return actor(f.ex.s.accountLocked(pullOf(f).pr.Author)), nil
		},
		"authorAssociation": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			return f.ex.s.associationLocked(p.repo, f.ex.s.accountLocked(p.pr.Author)), nil
		},
		"createdAt":    func(f *fieldCtx) (any, error) { return stamp(pullOf(f).pr.CreatedAt), nil },
		"updatedAt":    func(f *fieldCtx) (any, error) { return stamp(pullOf(f).pr.UpdatedAt), nil },
		"lastEditedAt": func(f *fieldCtx) (any, error) { return nil, nil },
		"repository":   func(f *fieldCtx) (any, error) { return object{typ: "Repository", v: pullOf(f).repo}, nil },
		"baseRepository": func(f *fieldCtx) (any, error) {
			return object{typ: "Repository", v: pullOf(f).repo}, nil
		},
		"headRepository": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			if p.pr.HeadRepo != "" {
				if st, ok := f.ex.s.repos[lower(p.pr.HeadRepo)]; ok {
					return object{typ: "Repository", v: st}, nil
				}
				return nil, nil
			}
			return object{typ: "Repository", v: p.repo}, nil
		},
		"headRepositoryOwner": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			if p.pr.HeadRepo != "" {
				if st, ok := f.ex.s.repos[lower(p.pr.HeadRepo)]; ok {
					return actor(st.owner), nil
				}
				return nil, nil
			}
			return actor(p.repo.owner), nil
		},
		"headRef": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			sha, ok := p.repo.branches[p.pr.Head]
			if !ok || p.pr.HeadRepo != "" {
				return nil, nil
			}
			return object{typ: "Ref", v: refObj{p.repo, p.pr.Head, sha}}, nil
		},
		"baseRef": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			sha, ok := p.repo.branches[p.pr.Base]
			if !ok {
				return nil, nil
			}
			return object{typ: "Ref", v: refObj{p.repo, p.pr.Base, sha}}, nil
		},
		"comments": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			items := make([]object, len(p.comments))
			for i, c := range p.comments {
				items[i] = object{typ: "IssueComment", v: commentObj{p, c}}
			}
			return f.paginate("IssueCommentConnection", items)
		},
		"reviews": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			states := argStrings(f.args, "states")
			var items []object
			for _, r := range p.reviews {
				if len(states) > 0 && !contains(states, r.State) {
					continue
				}
				items = append(items, object{typ: "PullRequestReview", v: reviewObj{p, r}})
			}
			return f.paginate("PullRequestReviewConnection", items)
		},
		"reviewThreads": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			items := make([]object, len(p.threads))
			for i, t := range p.threads {
				items[i] = object{typ: "PullRequestReviewThread", v: t}
			}
			return f.paginate("PullRequestReviewThreadConnection", items)
		},
		"reactions": func(f *fieldCtx) (any, error) { return f.reactionConnection(pullOf(f).reactions) },
		"commits": func(f *fieldCtx) (any, error) {
			p := pullOf(f)
			items := make([]object, len(p.commits))
			for i, sha := range p.commits {
				items[i] = object{typ: "PullRequestCommit", v: pullCommitObj{p, sha}}
			}
			return f.paginate("PullRequestCommitConnection", items)
		},
		"viewerDidAuthor": func(f *fieldCtx) (any, error) { return pullOf(f).pr.Author.ID == f.ex.c.viewer.ID, nil },
	})
}

func (f *fieldCtx) reactionConnection(list []*Reaction) (any, error) {
	content := argString(f.args, "content")
	var items []object
	for _, r := range list {
		if content != "" && reactionEnum(r.Content) != content {
			continue
		}
		items = append(items, object{typ: "Reaction", v: r})
	}
	return f.paginate("ReactionConnection", items)
}
