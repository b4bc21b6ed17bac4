package ghclient

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func installMutations(f *fakeGitHub, draft *bool, resolved map[string]bool) {
	comment := &obj{typ: "PullRequestReviewComment", fields: map[string]any{
		"id": "PRRC_new", "fullDatabaseId": "9007199254740993", "body": "fixed in abc",
		"author":    &obj{typ: "User", fields: map[string]any{"login": "me", "databaseId": 42}},
		"createdAt": "2026-03-01T12:00:00Z", "lastEditedAt": nil,
		"commit":         &obj{typ: "Commit", fields: map[string]any{"oid": "1111111111111111111111111111111111111111"}},
		"originalCommit": &obj{typ: "Commit", fields: map[string]any{"oid": "2222222222222222222222222222222222222222"}},
	}}
	f.mutation["addPullRequestReviewThreadReply"] = resolver(func(args map[string]any) (any, error) {
		in := args["input"].(map[string]any)
		if in["pullRequestReviewThreadId"] != "PRRT_1" {
			return nil, fmt.Errorf("Could not resolve to a node with the global id of '%v'", in["pullRequestReviewThreadId"])
		}
		comment.fields["body"] = in["body"]
		return &obj{typ: "AddPullRequestReviewThreadReplyPayload", fields: map[string]any{"comment": comment}}, nil
	})
	f.mutation["resolveReviewThread"] = resolver(func(args map[string]any) (any, error) {
		id := args["input"].(map[string]any)["threadId"].(string)
		resolved[id] = true
		return &obj{typ: "ResolveReviewThreadPayload", fields: map[string]any{
			"thread": &obj{typ: "PullRequestReviewThread", fields: map[string]any{"id": id, "isResolved": true}}}}, nil
	})
	f.mutation["markPullRequestReadyForReview"] = resolver(func(args map[string]any) (any, error) {
		if args["input"].(map[string]any)["pullRequestId"] != "PR_1" {
			return nil, errors.New("wrong pull request")
		}
		*draft = false
		return &obj{typ: "MarkPullRequestReadyForReviewPayload", fields: map[string]any{
			"pullRequest": &obj{typ: "PullRequest", fields: map[string]any{"id": "PR_1", "isDraft": false}}}}, nil
	})
	f.query["repository"] = resolver(func(args map[string]any) (any, error) {
		return &obj{typ: "Repository", fields: map[string]any{"pullRequest": resolver(func(map[string]any) (any, error) {
			return &obj{typ: "PullRequest", fields: map[string]any{"id": "PR_1", "isDraft": *draft}}, nil
		})}}, nil
	})
}

func TestReplyToThreadReturnsTheNewComment(t *testing.T) {
	f := newFakeGitHub(t)
	draft := true
	installMutations(f, &draft, map[string]bool{})
	c, _ := newTestClient(t, f, nil)
	tc, err := c.ReplyToThread(context.Background(), "PRRT_1", "Fixed in abc.\n<!-- marker -->")
	if err != nil {
		t.Fatal(err)
	}
	// 2^53+1: a BigInt id that a float64 would corrupt.
	if tc.ID != 9007199254740993 || tc.NodeID != "PRRC_new" || tc.Body != "Fixed in abc.\n<!-- marker -->" || tc.Author.ID != 42 || tc.OriginalCommitID != "2222222222222222222222222222222222222222" {
		t.Fatalf("reply %+v", tc)
	}
	if _, err := c.ReplyToThread(context.Background(), "PRRT_404", "x"); err == nil {
		t.Fatal("reply to an unknown thread succeeded")
	}
}

func TestResolveThread(t *testing.T) {
	f := newFakeGitHub(t)
	draft := true
	resolved := map[string]bool{}
	installMutations(f, &draft, resolved)
	c, _ := newTestClient(t, f, nil)
	if err := c.ResolveThread(context.Background(), "PRRT_1"); err != nil || !resolved["PRRT_1"] {
		t.Fatalf("err %v resolved %v", err, resolved)
	}
}

func TestMarkReadyForReviewIsIdempotent(t *testing.T) {
	f := newFakeGitHub(t)
	draft := true
	installMutations(f, &draft, map[string]bool{})
	c, _ := newTestClient(t, f, nil)
	if err := c.MarkReadyForReview(context.Background(), octoHello, 7); err != nil || draft {
		t.Fatalf("err %v draft %v", err, draft)
	}
	gqlBefore, _ := f.calls()
	if err := c.MarkReadyForReview(context.Background(), octoHello, 7); err != nil {
		t.Fatal(err)
	}
	if gql, _ := f.calls(); gql != gqlBefore+1 {
		t.Fatalf("a ready PR was mutated again (%d calls)", gql-gqlBefore)
	}
}
