package ghsim

import (
	"strings"
)

func input(f *fieldCtx) map[string]any {
	m, _ := f.args["input"].(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

func notFoundNode(id string) error {
	return errorf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'.", id)
}

func (f *fieldCtx) pullByNode(id string) (*pullState, error) {
	ref, ok := f.ex.s.nodes[id]
	p, isPull := ref.v.(*pullState)
	if !ok || !isPull {
		return nil, notFoundNode(id)
	}
	return p, nil
}

func (f *fieldCtx) threadByNode(id string) (*threadState, error) {
	ref, ok := f.ex.s.nodes[id]
	t, isThread := ref.v.(*threadState)
	if !ok || !isThread {
		return nil, notFoundNode(id)
	}
	return t, nil
}

func init() {
	register("Mutation", map[string]resolver{
		"addComment": func(f *fieldCtx) (any, error) {
			in := input(f)
			p, err := f.pullByNode(argString(in, "subjectId"))
			if err != nil {
				return nil, err
			}
			body := argString(in, "body")
			if strings.TrimSpace(body) == "" {
				return nil, errorf("UNPROCESSABLE", "Body can't be blank")
			}
			s := f.ex.s
			c := s.addCommentLocked(p, Comment{Author: *f.ex.c.viewer, Body: body})
			s.commentPostedLocked(p, c)
			node := object{typ: "IssueComment", v: commentObj{p, c}}
			return object{typ: "AddCommentPayload", v: payload{
				"clientMutationId": in["clientMutationId"],
				"commentEdge":      object{typ: "IssueCommentEdge", v: &edge{cursor: encodeCursor(len(p.comments) - 1), node: node}},
				"subject":          object{typ: "PullRequest", v: p},
				"timelineEdge":     nil,
			}}, nil
		},
		"addPullRequestReviewThreadReply": func(f *fieldCtx) (any, error) {
			in := input(f)
			t, err := f.threadByNode(argString(in, "pullRequestReviewThreadId"))
			if err != nil {
				return nil, err
			}
			body := argString(in, "body")
			if strings.TrimSpace(body) == "" {
				return nil, errorf("UNPROCESSABLE", "Body can't be blank")
			}
			c := f.ex.s.replyLocked(t, ReviewComment{Author: *f.ex.c.viewer, Body: body})
			return object{typ: "AddPullRequestReviewThreadReplyPayload", v: payload{
				"clientMutationId": in["clientMutationId"],
				"comment":          object{typ: "PullRequestReviewComment", v: reviewCmtObj{t.pull, c}},
			}}, nil
		},
		"resolveReviewThread":   func(f *fieldCtx) (any, error) { return f.setResolved("ResolveReviewThreadPayload", true) },
		"unresolveReviewThread": func(f *fieldCtx) (any, error) { return f.setResolved("UnresolveReviewThreadPayload", false) },
		"markPullRequestReadyForReview": func(f *fieldCtx) (any, error) {
			in := input(f)
			p, err := f.pullByNode(argString(in, "pullRequestId"))
			if err != nil {
				return nil, err
			}
			p.pr.Draft = false
			if p.pr.MergeStateStatus == "DRAFT" {
				p.pr.MergeStateStatus = "CLEAN"
			}
			f.ex.s.recomputeMergeStateLocked(p) // a scripted PR's gates follow

			p.pr.UpdatedAt = f.ex.s.now()
			return object{typ: "MarkPullRequestReadyForReviewPayload", v: payload{
				"clientMutationId": in["clientMutationId"],
				"pullRequest":      object{typ: "PullRequest", v: p},
			}}, nil
		},
		"convertPullRequestToDraft": func(f *fieldCtx) (any, error) {
			in := input(f)
			p, err := f.pullByNode(argString(in, "pullRequestId"))
			if err != nil {
				return nil, err
			}
			p.pr.Draft = true
			p.pr.UpdatedAt = f.ex.s.now()
			f.ex.s.recomputeMergeStateLocked(p)
			return object{typ: "ConvertPullRequestToDraftPayload", v: payload{
				"clientMutationId": in["clientMutationId"],
				"pullRequest":      object{typ: "PullRequest", v: p},
			}}, nil
		},
		"createPullRequest": func(f *fieldCtx) (any, error) {
			in := input(f)
			id := argString(in, "repositoryId")
			ref, ok := f.ex.s.nodes[id]
			st, isRepo := ref.v.(*repoState)
			if !ok || !isRepo {
				return nil, notFoundNode(id)
			}
			draft, _ := in["draft"].(bool)
			p, errs := f.ex.s.openPullLocked(st, f.ex.c.viewer, createPullBody{
				Title: argString(in, "title"), Head: argString(in, "headRefName"),
				Base: argString(in, "baseRefName"), Body: argString(in, "body"), Draft: draft,
			})
			if errs != nil {
				var msgs []string
				for _, e := range errs {
					if m, ok := e["message"].(string); ok {
						msgs = append(msgs, m)
					} else {
						field, _ := e["field"].(string)
						code, _ := e["code"].(string)
						msgs = append(msgs, field+" is "+strings.ReplaceAll(code, "_", " "))
					}
				}
				return nil, errorf("UNPROCESSABLE", "%s", strings.Join(msgs, ", "))
			}
			return object{typ: "CreatePullRequestPayload", v: payload{
				"clientMutationId": in["clientMutationId"],
				"pullRequest":      object{typ: "PullRequest", v: p},
			}}, nil
		},
	})
}

func (f *fieldCtx) setResolved(payloadType string, resolved bool) (any, error) {
	in := input(f)
	t, err := f.threadByNode(argString(in, "threadId"))
	if err != nil {
		return nil, err
	}
	t.t.Resolved = resolved
	return object{typ: payloadType, v: payload{
		"clientMutationId": in["clientMutationId"],
		"thread":           object{typ: "PullRequestReviewThread", v: t},
	}}, nil
}
