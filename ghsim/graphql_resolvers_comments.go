package ghsim

import "fmt"

func init() {
	register("IssueComment", map[string]resolver{
		"id":                  func(f *fieldCtx) (any, error) { return f.obj.v.(commentObj).c.NodeID, nil },
		"databaseId":          func(f *fieldCtx) (any, error) { return f.obj.v.(commentObj).c.ID, nil },
		"fullDatabaseId":      func(f *fieldCtx) (any, error) { return fmt.Sprint(f.obj.v.(commentObj).c.ID), nil },
		"author":              func(f *fieldCtx) (any, error) { return actor(f.ex.s.accountLocked(f.obj.v.(commentObj).c.Author)), nil },
		"body":                func(f *fieldCtx) (any, error) { return f.obj.v.(commentObj).c.Body, nil },
		"createdAt":           func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(commentObj).c.CreatedAt), nil },
		"publishedAt":         func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(commentObj).c.CreatedAt), nil },
		"updatedAt":           func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(commentObj).c.UpdatedAt), nil },
		"lastEditedAt":        func(f *fieldCtx) (any, error) { return timeOrNull(f.obj.v.(commentObj).c.LastEditedAt), nil },
		"includesCreatedEdit": func(f *fieldCtx) (any, error) { return !f.obj.v.(commentObj).c.LastEditedAt.IsZero(), nil },
		"authorAssociation":   func(f *fieldCtx) (any, error) { return f.obj.v.(commentObj).c.AuthorAssociation, nil },
		"isMinimized":         func(f *fieldCtx) (any, error) { return false, nil },
		"minimizedReason":     func(f *fieldCtx) (any, error) { return nil, nil },
		"viewerDidAuthor": func(f *fieldCtx) (any, error) {
			return f.obj.v.(commentObj).c.Author.ID == f.ex.c.viewer.ID, nil
		},
		"url": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commentObj)
			return fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", f.ex.s.opts.WebURL, o.p.repo.fullName(), o.p.pr.Number, o.c.ID), nil
		},
		"pullRequest": func(f *fieldCtx) (any, error) { return object{typ: "PullRequest", v: f.obj.v.(commentObj).p}, nil },
		"reactions": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commentObj)
			return f.reactionConnection(o.p.commentReacts[o.c.ID])
		},
	})

	register("PullRequestReview", map[string]resolver{
		"id":             func(f *fieldCtx) (any, error) { return f.obj.v.(reviewObj).r.NodeID, nil },
		"databaseId":     func(f *fieldCtx) (any, error) { return f.obj.v.(reviewObj).r.ID, nil },
		"fullDatabaseId": func(f *fieldCtx) (any, error) { return fmt.Sprint(f.obj.v.(reviewObj).r.ID), nil },
		"author":         func(f *fieldCtx) (any, error) { return actor(f.ex.s.accountLocked(f.obj.v.(reviewObj).r.Author)), nil },
		"body":           func(f *fieldCtx) (any, error) { return f.obj.v.(reviewObj).r.Body, nil },
		"state":          func(f *fieldCtx) (any, error) { return f.obj.v.(reviewObj).r.State, nil },
		"submittedAt": func(f *fieldCtx) (any, error) {
			r := f.obj.v.(reviewObj).r
			if r.State == "PENDING" {
				return nil, nil
			}
			return stamp(r.SubmittedAt), nil
		},
		"createdAt":           func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewObj).r.SubmittedAt), nil },
		"publishedAt":         func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewObj).r.SubmittedAt), nil },
		"updatedAt":           func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewObj).r.UpdatedAt), nil },
		"lastEditedAt":        func(f *fieldCtx) (any, error) { return timeOrNull(f.obj.v.(reviewObj).r.LastEditedAt), nil },
		"includesCreatedEdit": func(f *fieldCtx) (any, error) { return !f.obj.v.(reviewObj).r.LastEditedAt.IsZero(), nil },
		"authorAssociation": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewObj)
			return f.ex.s.associationLocked(o.p.repo, f.ex.s.accountLocked(o.r.Author)), nil
		},
		"url": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewObj)
			return fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", f.ex.s.opts.WebURL, o.p.repo.fullName(), o.p.pr.Number, o.r.ID), nil
		},
		"commit": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewObj)
			if o.r.CommitID == "" {
				return nil, nil
			}
			return object{typ: "Commit", v: commitObj{o.p.repo, o.r.CommitID}}, nil
		},
		"pullRequest": func(f *fieldCtx) (any, error) { return object{typ: "PullRequest", v: f.obj.v.(reviewObj).p}, nil },
		"comments": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewObj)
			var items []object
			for _, c := range o.p.reviewComments {
				if c.ReviewID == o.r.ID {
					items = append(items, object{typ: "PullRequestReviewComment", v: reviewCmtObj{o.p, c}})
				}
			}
			return f.paginate("PullRequestReviewCommentConnection", items)
		},
		"reactions": func(f *fieldCtx) (any, error) { return f.reactionConnection(nil) },
	})

	register("PullRequestReviewThread", map[string]resolver{
		"id":          func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.NodeID, nil },
		"isResolved":  func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.Resolved, nil },
		"isCollapsed": func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.Resolved, nil },
		"isOutdated":  func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.Outdated, nil },
		"path":        func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.Path, nil },
		"line": func(f *fieldCtx) (any, error) {
			t := f.obj.v.(*threadState).t
			if t.Outdated {
				return nil, nil
			}
			return intOrNull(t.Line), nil
		},
		"originalLine": func(f *fieldCtx) (any, error) { return intOrNull(f.obj.v.(*threadState).t.OriginalLine), nil },
		"startLine": func(f *fieldCtx) (any, error) {
			t := f.obj.v.(*threadState).t
			if t.Outdated {
				return nil, nil
			}
			return intOrNull(t.StartLine), nil
		},
		"originalStartLine": func(f *fieldCtx) (any, error) { return intOrNull(f.obj.v.(*threadState).t.OriginalStartLine), nil },
		"diffSide":          func(f *fieldCtx) (any, error) { return f.obj.v.(*threadState).t.DiffSide, nil },
		"startDiffSide":     func(f *fieldCtx) (any, error) { return strOrNull(f.obj.v.(*threadState).t.StartDiffSide), nil },
		"subjectType":       func(f *fieldCtx) (any, error) { return "LINE", nil },
		"viewerCanResolve":  func(f *fieldCtx) (any, error) { return true, nil },
		"viewerCanReply":    func(f *fieldCtx) (any, error) { return true, nil },
		"resolvedBy":        func(f *fieldCtx) (any, error) { return nil, nil },
		"pullRequest":       func(f *fieldCtx) (any, error) { return object{typ: "PullRequest", v: f.obj.v.(*threadState).pull}, nil },
		"repository": func(f *fieldCtx) (any, error) {
			return object{typ: "Repository", v: f.obj.v.(*threadState).pull.repo}, nil
		},
		"comments": func(f *fieldCtx) (any, error) {
			t := f.obj.v.(*threadState)
			items := make([]object, len(t.comments))
			for i, c := range t.comments {
				items[i] = object{typ: "PullRequestReviewComment", v: reviewCmtObj{t.pull, c}}
			}
			return f.paginate("PullRequestReviewCommentConnection", items)
		},
	})

	register("PullRequestReviewComment", map[string]resolver{
		"id":             func(f *fieldCtx) (any, error) { return f.obj.v.(reviewCmtObj).c.NodeID, nil },
		"databaseId":     func(f *fieldCtx) (any, error) { return f.obj.v.(reviewCmtObj).c.ID, nil },
		"fullDatabaseId": func(f *fieldCtx) (any, error) { return fmt.Sprint(f.obj.v.(reviewCmtObj).c.ID), nil },
		"author": func(f *fieldCtx) (any, error) {
			return actor(f.ex.s.accountLocked(f.obj.v.(reviewCmtObj).c.Author)), nil
		},
		"body":         func(f *fieldCtx) (any, error) { return f.obj.v.(reviewCmtObj).c.Body, nil },
		"createdAt":    func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewCmtObj).c.CreatedAt), nil },
		"publishedAt":  func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewCmtObj).c.CreatedAt), nil },
		"updatedAt":    func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(reviewCmtObj).c.UpdatedAt), nil },
		"lastEditedAt": func(f *fieldCtx) (any, error) { return timeOrNull(f.obj.v.(reviewCmtObj).c.LastEditedAt), nil },
		"includesCreatedEdit": func(f *fieldCtx) (any, error) {
			return !f.obj.v.(reviewCmtObj).c.LastEditedAt.IsZero(), nil
		},
		"path":     func(f *fieldCtx) (any, error) { return f.obj.v.(reviewCmtObj).c.Path, nil },
		"diffHunk": func(f *fieldCtx) (any, error) { return f.obj.v.(reviewCmtObj).c.DiffHunk, nil },
		"line": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			if t := o.p.findThread(o.c.ThreadID); t != nil && t.t.Outdated {
				return nil, nil
			}
			return intOrNull(o.c.Line), nil
		},
		"originalLine": func(f *fieldCtx) (any, error) { return intOrNull(f.obj.v.(reviewCmtObj).c.OriginalLine), nil },
		"startLine": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			if t := o.p.findThread(o.c.ThreadID); t != nil && t.t.Outdated {
				return nil, nil
			}
			return intOrNull(o.c.StartLine), nil
		},
		"originalStartLine": func(f *fieldCtx) (any, error) { return intOrNull(f.obj.v.(reviewCmtObj).c.OriginalStartLine), nil },
		"outdated": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			t := o.p.findThread(o.c.ThreadID)
			return t != nil && t.t.Outdated, nil
		},
		"state":       func(f *fieldCtx) (any, error) { return "SUBMITTED", nil },
		"subjectType": func(f *fieldCtx) (any, error) { return "LINE", nil },
		"authorAssociation": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			return f.ex.s.associationLocked(o.p.repo, f.ex.s.accountLocked(o.c.Author)), nil
		},
		"url": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			return fmt.Sprintf("%s/%s/pull/%d#discussion_r%d", f.ex.s.opts.WebURL, o.p.repo.fullName(), o.p.pr.Number, o.c.ID), nil
		},
		"commit": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			return object{typ: "Commit", v: commitObj{o.p.repo, o.c.CommitID}}, nil
		},
		"originalCommit": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			return object{typ: "Commit", v: commitObj{o.p.repo, o.c.OriginalCommitID}}, nil
		},
		"replyTo": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			if o.c.InReplyToID == 0 {
				return nil, nil
			}
			if r := o.p.findReviewComment(o.c.InReplyToID); r != nil {
				return object{typ: "PullRequestReviewComment", v: reviewCmtObj{o.p, r}}, nil
			}
			return nil, nil
		},
		"pullRequestReview": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(reviewCmtObj)
			if r := o.p.findReview(o.c.ReviewID); r != nil {
				return object{typ: "PullRequestReview", v: reviewObj{o.p, r}}, nil
			}
			return nil, nil
		},
		"pullRequest": func(f *fieldCtx) (any, error) { return object{typ: "PullRequest", v: f.obj.v.(reviewCmtObj).p}, nil },
		"reactions":   func(f *fieldCtx) (any, error) { return f.reactionConnection(nil) },
	})

	register("Reaction", map[string]resolver{
		"id":         func(f *fieldCtx) (any, error) { return f.obj.v.(*Reaction).NodeID, nil },
		"databaseId": func(f *fieldCtx) (any, error) { return f.obj.v.(*Reaction).ID, nil },
		"content":    func(f *fieldCtx) (any, error) { return reactionEnum(f.obj.v.(*Reaction).Content), nil },
		"createdAt":  func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(*Reaction).CreatedAt), nil },
		// Reaction.user is typed User in GitHub's schema, which a Bot is
		// not: a bot's reaction has no user here (ReactionGroup.reactors
		// is where GitHub shows it; see graphql_resolvers_reactions.go).
		"user": func(f *fieldCtx) (any, error) {
			a := f.ex.s.accountLocked(f.obj.v.(*Reaction).User)
			if a.Type != TypeUser {
				return nil, nil
			}
			return object{typ: TypeUser, v: a}, nil
		},
	})
}
