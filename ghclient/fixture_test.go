package ghclient

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prloop/gh-prloop/core/observe"
)

const codexBotID = 199175422

// prFixture describes a pull request; build turns it into both the fake's
// object graph and, independently, the observation ghclient must return.
type prFixture struct {
	comments, reviews, threads, reactions, checkRuns, statuses int
	longThread, longThreadComments                             int // thread index and its comment count
	head                                                       *string
}

type builtPR struct {
	pr       *obj
	nodes    map[string]*obj
	expected *observe.PR
}

func ts(i int) string {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
}

// actor alternates the Codex bot, a user and a deleted account.
func actor(i int) (*obj, observe.Actor) {
	switch i % 3 {
	case 0:
		return &obj{typ: "Bot", fields: map[string]any{"login": "chatgpt-codex-connector", "databaseId": codexBotID}},
			observe.Actor{Login: "chatgpt-codex-connector", ID: codexBotID, Type: "Bot"}
	case 1:
		id := 1000 + i
		login := fmt.Sprintf("user%d", i)
		return &obj{typ: "User", fields: map[string]any{"login": login, "databaseId": id}},
			observe.Actor{Login: login, ID: int64(id), Type: "User"}
	}
	return nil, observe.Actor{}
}

func (f prFixture) build() builtPR {
	head := "1111111111111111111111111111111111111111"
	if f.head != nil {
		head = *f.head
	}
	headOID := resolver(func(map[string]any) (any, error) { return head, nil })
	if f.head != nil {
		headOID = func(map[string]any) (any, error) { return *f.head, nil }
	}
	b := builtPR{nodes: map[string]*obj{}, expected: &observe.PR{
		Repository: "octo/hello", ViewerID: 42, ObservedAt: "2026-03-01T12:00:00Z",
		IssueComments: []observe.IssueComment{}, Reviews: []observe.Review{}, ReviewComments: []observe.ReviewComment{},
		Threads: []observe.Thread{}, Reactions: []observe.Reaction{}, CheckRuns: []observe.CheckRun{},
		Statuses: []observe.CommitStatus{}, ChecksRead: true,
	}}
	exp := b.expected

	var comments []*obj
	for i := range f.comments {
		a, ea := actor(i)
		var edited any
		if i%2 == 0 {
			edited = ts(i + 1)
			exp.IssueComments = append(exp.IssueComments, observe.IssueComment{ID: int64(5000 + i), NodeID: fmt.Sprintf("IC_%d", i), Author: ea, Body: fmt.Sprintf("comment %d", i), CreatedAt: ts(i), UpdatedAt: ts(i + 1), LastEditedAt: ts(i + 1)})
		} else {
			exp.IssueComments = append(exp.IssueComments, observe.IssueComment{ID: int64(5000 + i), NodeID: fmt.Sprintf("IC_%d", i), Author: ea, Body: fmt.Sprintf("comment %d", i), CreatedAt: ts(i), UpdatedAt: ts(i + 1)})
		}
		comments = append(comments, &obj{typ: "IssueComment", fields: map[string]any{
			"id": fmt.Sprintf("IC_%d", i), "fullDatabaseId": strconv.Itoa(5000 + i), "author": a,
			"body": fmt.Sprintf("comment %d", i), "createdAt": ts(i), "updatedAt": ts(i + 1), "lastEditedAt": edited,
		}})
	}

	var reviews []*obj
	reviewRefs := []*obj{}
	for i := range f.reviews {
		a, ea := actor(i)
		id := 7000 + i
		reviews = append(reviews, &obj{typ: "PullRequestReview", fields: map[string]any{
			"id": fmt.Sprintf("PRR_%d", i), "fullDatabaseId": strconv.Itoa(id), "author": a, "body": fmt.Sprintf("review %d", i),
			"state": "COMMENTED", "commit": &obj{typ: "Commit", fields: map[string]any{"oid": head}},
			"submittedAt": ts(i), "updatedAt": ts(i), "lastEditedAt": nil,
		}})
		reviewRefs = append(reviewRefs, &obj{typ: "PullRequestReview", fields: map[string]any{"fullDatabaseId": strconv.Itoa(id)}})
		exp.Reviews = append(exp.Reviews, observe.Review{ID: int64(id), NodeID: fmt.Sprintf("PRR_%d", i), Author: ea, Body: fmt.Sprintf("review %d", i), State: "COMMENTED", CommitID: head, SubmittedAt: ts(i), UpdatedAt: ts(i)})
	}

	var threads []*obj
	for i := range f.threads {
		n := 2
		if i == f.longThread && f.longThreadComments > 0 {
			n = f.longThreadComments
		}
		line := int64(10 + i)
		path := fmt.Sprintf("f%d.go", i)
		tid := fmt.Sprintf("PRRT_%d", i)
		et := observe.Thread{ID: tid, IsResolved: i%2 == 0, Path: path, Line: &line, OriginalLine: &line, Side: "RIGHT", Comments: []observe.ThreadComment{}}
		var tcs []*obj
		var root *obj
		for j := range n {
			a, ea := actor(i + j)
			id := 100000 + i*1000 + j
			var review any
			var reviewID int64
			if len(reviewRefs) > 0 && j == 0 {
				review = reviewRefs[i%len(reviewRefs)]
				reviewID = int64(7000 + i%len(reviewRefs))
				exp.Reviews[i%len(reviewRefs)].CommentCount++
			}
			var replyTo any
			var replyID int64
			if j > 0 {
				replyTo, replyID = root, int64(100000+i*1000)
			}
			c := &obj{typ: "PullRequestReviewComment", fields: map[string]any{
				"id": fmt.Sprintf("PRRC_%d_%d", i, j), "fullDatabaseId": strconv.Itoa(id), "author": a,
				"body": fmt.Sprintf("thread %d comment %d", i, j), "createdAt": ts(j), "updatedAt": ts(j), "lastEditedAt": nil,
				"path": path, "commit": &obj{typ: "Commit", fields: map[string]any{"oid": head}},
				"originalCommit":    &obj{typ: "Commit", fields: map[string]any{"oid": "2222222222222222222222222222222222222222"}},
				"pullRequestReview": review, "replyTo": replyTo,
			}}
			if j == 0 {
				root = c
			}
			tcs = append(tcs, c)
			et.Comments = append(et.Comments, observe.ThreadComment{NodeID: fmt.Sprintf("PRRC_%d_%d", i, j), ID: int64(id), Author: ea, Body: fmt.Sprintf("thread %d comment %d", i, j), CreatedAt: ts(j), CommitID: head, OriginalCommitID: "2222222222222222222222222222222222222222"})
			exp.ReviewComments = append(exp.ReviewComments, observe.ReviewComment{ID: int64(id), NodeID: fmt.Sprintf("PRRC_%d_%d", i, j), ReviewID: reviewID, InReplyToID: replyID, Author: ea, Body: fmt.Sprintf("thread %d comment %d", i, j), CreatedAt: ts(j), UpdatedAt: ts(j), CommitID: head, OriginalCommitID: "2222222222222222222222222222222222222222", Path: path})
		}
		t := &obj{typ: "PullRequestReviewThread", fields: map[string]any{
			"id": tid, "isResolved": i%2 == 0, "isOutdated": false, "path": path, "line": line, "originalLine": line,
			"startLine": nil, "diffSide": "RIGHT", "comments": &conn{items: tcs},
		}}
		b.nodes[tid] = t
		threads = append(threads, t)
		exp.Threads = append(exp.Threads, et)
	}

	// Reactions come as groups by content, reactors typed (a Bot too) with
	// the time each reacted; the fixture alternates 👀 by the Codex bot and
	// 👍 by users, so the groups interleave in time.
	groups := map[string]*conn{}
	var order []string
	for i := range f.reactions {
		content, rest := "THUMBS_UP", "+1"
		node := &obj{typ: "User", fields: map[string]any{"login": fmt.Sprintf("reactor%d", i), "databaseId": 3000 + i}}
		who := observe.Actor{Login: fmt.Sprintf("reactor%d", i), ID: int64(3000 + i), Type: "User"}
		if i%2 == 0 {
			content, rest = "EYES", "eyes"
			node = &obj{typ: "Bot", fields: map[string]any{"login": "chatgpt-codex-connector", "databaseId": codexBotID}}
			who = observe.Actor{Login: "chatgpt-codex-connector", ID: codexBotID, Type: "Bot"}
		}
		g, ok := groups[content]
		if !ok {
			g = &conn{edges: []*obj{}}
			groups[content] = g
			order = append(order, content)
		}
		g.items = append(g.items, node)
		g.edges = append(g.edges, &obj{typ: "ReactorEdge", fields: map[string]any{"reactedAt": ts(i), "node": node}})
		exp.Reactions = append(exp.Reactions, observe.Reaction{Content: rest, User: who, CreatedAt: ts(i), Subject: "pr"})
	}
	reactionGroups := []*obj{}
	for _, content := range order {
		reactionGroups = append(reactionGroups, &obj{typ: "ReactionGroup", fields: map[string]any{"content": content, "reactors": groups[content]}})
	}

	var contexts []*obj
	for i := range f.checkRuns {
		var conclusion any = "SUCCESS"
		status := "COMPLETED"
		ec := observe.CheckRun{Name: fmt.Sprintf("check %d", i), Status: "completed", Conclusion: "success"}
		if i%5 == 4 {
			conclusion, status = nil, "IN_PROGRESS"
			ec.Status, ec.Conclusion = "in_progress", ""
		}
		contexts = append(contexts, &obj{typ: "CheckRun", fields: map[string]any{"name": ec.Name, "status": status, "conclusion": conclusion}})
		exp.CheckRuns = append(exp.CheckRuns, ec)
	}
	for i := range f.statuses {
		state, rest := "SUCCESS", "success"
		if i%4 == 3 {
			state, rest = "EXPECTED", "pending"
		}
		contexts = append(contexts, &obj{typ: "StatusContext", fields: map[string]any{"context": fmt.Sprintf("ci/%d", i), "state": state}})
		exp.Statuses = append(exp.Statuses, observe.CommitStatus{Context: fmt.Sprintf("ci/%d", i), State: rest})
	}
	rollup := &obj{typ: "StatusCheckRollup", fields: map[string]any{"id": "SCR_1", "contexts": &conn{items: contexts}}}
	b.nodes["SCR_1"] = rollup

	commit := &obj{typ: "Commit", fields: map[string]any{"oid": headOID, "statusCheckRollup": rollup}}
	b.pr = &obj{typ: "PullRequest", fields: map[string]any{
		"id": "PR_1", "number": 7, "url": "https://github.com/octo/hello/pull/7", "title": "Add things",
		"body": "Body with <html> & \"quotes\"", "state": "OPEN", "isDraft": true, "isCrossRepository": false,
		"baseRefName": "main", "baseRefOid": "3333333333333333333333333333333333333333",
		"headRefName": "feature/x", "headRefOid": headOID, "mergeable": "MERGEABLE",
		"mergeStateStatus": "BLOCKED", "reviewDecision": nil,
		"comments": &conn{items: comments}, "reviews": &conn{items: reviews}, "reviewThreads": &conn{items: threads},
		"reactionGroups": reactionGroups,
		"commits":        &conn{items: []*obj{{typ: "PullRequestCommit", fields: map[string]any{"commit": commit}}}},
	}}
	b.nodes["PR_1"] = b.pr
	exp.PullRequest = observe.PullRequest{
		Number: 7, URL: "https://github.com/octo/hello/pull/7", Title: "Add things", Body: "Body with <html> & \"quotes\"",
		State: "OPEN", IsDraft: true, BaseRefName: "main", BaseSHA: "3333333333333333333333333333333333333333",
		HeadRefName: "feature/x", HeadSHA: head, Mergeable: "MERGEABLE", MergeStateStatus: "BLOCKED",
	}
	return b
}

// install makes the fake answer for octo/hello#7 with this PR.
func (b builtPR) install(f *fakeGitHub) {
	f.query["viewer"] = &obj{typ: "User", fields: map[string]any{"databaseId": 42, "login": "me"}}
	f.query["repository"] = resolver(func(args map[string]any) (any, error) {
		if args["owner"] != "octo" || args["name"] != "hello" {
			return nil, fmt.Errorf("Could not resolve to a Repository with the name '%v/%v'.", args["owner"], args["name"])
		}
		return &obj{typ: "Repository", fields: map[string]any{"pullRequest": resolver(func(args map[string]any) (any, error) {
			if n, _ := intArg(args, "number"); n != 7 {
				return nil, fmt.Errorf("Could not resolve to a PullRequest with the number of %d.", n)
			}
			return b.pr, nil
		})}}, nil
	})
	f.query["node"] = resolver(func(args map[string]any) (any, error) {
		o, ok := b.nodes[args["id"].(string)]
		if !ok {
			return nil, nil
		}
		return o, nil
	})
}
