package ghsim

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func loadExample(t *testing.T, name string) any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "rest-examples", name))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// shapeDiff lists every key of ref missing from got, and every value whose
// JSON kind differs where both are non-null. Arrays compare their first
// elements when both have one.
func shapeDiff(ref, got any, path string) []string {
	var out []string
	switch r := ref.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			if got == nil {
				return nil
			}
			return []string{path + ": want object, got " + jsonKind(got)}
		}
		for k, rv := range r {
			gv, present := g[k]
			if !present {
				out = append(out, path+"/"+k+": missing")
				continue
			}
			out = append(out, shapeDiff(rv, gv, path+"/"+k)...)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			if got == nil {
				return nil
			}
			return []string{path + ": want array, got " + jsonKind(got)}
		}
		if len(r) > 0 && len(g) > 0 {
			out = append(out, shapeDiff(r[0], g[0], path+"/0")...)
		}
	default:
		if ref != nil && got != nil && jsonKind(ref) != jsonKind(got) {
			out = append(out, fmt.Sprintf("%s: want %s, got %s", path, jsonKind(ref), jsonKind(got)))
		}
	}
	sort.Strings(out)
	return out
}

func TestShapeDiffDetectsMissingKeysAndKinds(t *testing.T) {
	ref := map[string]any{"a": 1.0, "b": map[string]any{"c": "x"}, "d": []any{map[string]any{"e": true}}}
	got := map[string]any{"a": "1", "b": map[string]any{}, "d": []any{map[string]any{}}}
	diff := shapeDiff(ref, got, "")
	want := []string{"/a: want number, got string", "/b/c: missing", "/d/0/e: missing"}
	if fmt.Sprint(diff) != fmt.Sprint(want) {
		t.Fatalf("shapeDiff = %v, want %v", diff, want)
	}
}

func TestRESTShapesMatchGitHubExamples(t *testing.T) {
	f := newFixture(t)
	bot := CodexBot()
	reviewer := f.s.AddAccount(Account{Login: "octocat", Type: TypeUser})
	comment := f.pr.AddComment(Comment{Author: reviewer, Body: "Me too"})
	if _, err := f.pr.AddCommentReaction(comment.ID, Reaction{Content: "heart", User: reviewer}); err != nil {
		t.Fatal(err)
	}
	f.pr.AddReaction(Reaction{Content: "heart", User: reviewer})
	f.pr.AddReview(Review{Author: reviewer, Body: "Here is the body for the review.", State: "APPROVED"})
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: bot, Body: "root", Path: "file1.txt", Line: 2, StartLine: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.pr.Reply(th.NodeID, ReviewComment{Author: reviewer, Body: "Great stuff!"}); err != nil {
		t.Fatal(err)
	}
	f.repo.AddCheckRun(CheckRun{HeadSHA: shaB, Name: "mighty_readme", Status: "completed", Conclusion: "neutral"})
	f.repo.AddStatus(CommitStatus{SHA: shaB, Context: "continuous-integration/jenkins", State: "success", Description: "Build has completed successfully", TargetURL: "https://ci.example.com/1000/output"})
	f.repo.AddStatus(CommitStatus{SHA: shaB, Context: "security/brakeman", State: "success"})
	f.repo.SetBranchRules("main", []map[string]any{{
		"type": "commit_message_pattern", "ruleset_source_type": "Repository", "ruleset_source": "acme/app",
		"ruleset_id": 42, "parameters": map[string]any{"operator": "starts_with", "pattern": "issue"},
	}})
	f.repo.SetBranch("feature", shaC)

	cases := []struct {
		example, method, path string
		body                  any
		status                int
		pick                  func([]any) any // for lists: which element to compare
	}{
		{"pulls-get.json", "GET", "/repos/acme/app/pulls/7", nil, 200, nil},
		{"pulls-list.json", "GET", "/repos/acme/app/pulls", nil, 200, nil},
		{"pulls-get.json", "POST", "/repos/acme/app/pulls", map[string]any{"title": "New", "head": "feature", "base": "main"}, 201, nil},
		{"issues-list-comments.json", "GET", "/repos/acme/app/issues/7/comments", nil, 200, nil},
		{"issues-create-comment.json", "POST", "/repos/acme/app/issues/7/comments", map[string]any{"body": "Me too"}, 201, nil},
		{"pulls-list-reviews.json", "GET", "/repos/acme/app/pulls/7/reviews", nil, 200, nil},
		{"pulls-list-review-comments.json", "GET", "/repos/acme/app/pulls/7/comments", nil, 200,
			func(l []any) any { return []any{l[len(l)-1]} }},
		{"pulls-create-reply-for-review-comment.json", "POST", fmt.Sprintf("/repos/acme/app/pulls/7/comments/%d/replies", th.Comments[0].ID),
			map[string]any{"body": "ok"}, 201, nil},
		{"reactions-list-for-issue.json", "GET", "/repos/acme/app/issues/7/reactions", nil, 200, nil},
		{"reactions-list-for-issue.json", "GET", fmt.Sprintf("/repos/acme/app/issues/comments/%d/reactions", comment.ID), nil, 200, nil},
		{"checks-list-for-ref.json", "GET", "/repos/acme/app/commits/" + shaB + "/check-runs", nil, 200, nil},
		{"repos-get-combined-status-for-ref.json", "GET", "/repos/acme/app/commits/topic/status", nil, 200, nil},
		{"repos-get-branch.json", "GET", "/repos/acme/app/branches/main", nil, 200, nil},
		{"git-get-ref.json", "GET", "/repos/acme/app/git/ref/heads/topic", nil, 200, nil},
		{"repos-get-branch-rules.json", "GET", "/repos/acme/app/rules/branches/main", nil, 200, nil},
		{"users-get-authenticated.response-with-public-and-private-profile-information.json", "GET", "/user", nil, 200, nil},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := f.do(tc.method, tc.path, tc.body)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			got := r.json(t)
			if l, ok := got.([]any); ok {
				if len(l) == 0 {
					t.Fatalf("empty list; the fixture should have seeded an item")
				}
				if tc.pick != nil {
					got = tc.pick(l)
				}
			}
			if diff := shapeDiff(loadExample(t, tc.example), got, ""); len(diff) > 0 {
				t.Errorf("shape differs from %s:\n%v", tc.example, diff)
			}
		})
	}
}

func TestReviewCommentRootOmitsInReplyTo(t *testing.T) {
	f := newFixture(t)
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: "root", Path: "a.go", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := f.pr.Reply(th.NodeID, ReviewComment{Body: "reply"})
	if err != nil {
		t.Fatal(err)
	}
	l := f.do("GET", "/repos/acme/app/pulls/7/comments", nil).list(t)
	if len(l) != 2 {
		t.Fatalf("want 2 review comments, got %d", len(l))
	}
	if _, ok := l[0].(map[string]any)["in_reply_to_id"]; ok {
		t.Error("root comment carries in_reply_to_id")
	}
	if got := dig(t, l[1], "in_reply_to_id"); got != float64(th.Comments[0].ID) {
		t.Errorf("reply in_reply_to_id = %v, want %d", got, th.Comments[0].ID)
	}
	// GitHub creates a review for a standalone reply.
	if dig(t, l[1], "pull_request_review_id") == dig(t, l[0], "pull_request_review_id") {
		t.Error("reply shares the root's review; GitHub files a standalone reply under its own review")
	}
	if reply.OriginalCommitID != shaB {
		t.Errorf("reply original_commit_id = %s, want head %s", reply.OriginalCommitID, shaB)
	}
}

func TestBotIdentityAcrossAPIs(t *testing.T) {
	f := newFixture(t)
	c := f.pr.AddComment(Comment{Author: CodexBot(), Body: "hello"})
	if _, err := f.pr.AddCommentReaction(c.ID, Reaction{Content: "eyes", User: CodexBot()}); err != nil {
		t.Fatal(err)
	}
	user := dig(t, f.do("GET", "/repos/acme/app/issues/7/comments", nil).json(t), 0, "user")
	if dig(t, user, "login") != CodexBotLogin || dig(t, user, "id") != float64(CodexBotID) || dig(t, user, "type") != "Bot" {
		t.Errorf("REST comment user = %v", user)
	}
	if dig(t, user, "html_url") != "https://github.com/apps/chatgpt-codex-connector" {
		t.Errorf("bot html_url = %v", dig(t, user, "html_url"))
	}
	// The reactions API reports the bot with type "Bot" (PROTOCOL §5).
	ru := dig(t, f.do("GET", fmt.Sprintf("/repos/acme/app/issues/comments/%d/reactions", c.ID), nil).json(t), 0, "user")
	if dig(t, ru, "type") != "Bot" || dig(t, ru, "id") != float64(CodexBotID) || dig(t, ru, "login") != CodexBotLogin {
		t.Errorf("reaction user = %v", ru)
	}
	// GraphQL spells the bot's login without "[bot]".
	doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){comments(first:5){nodes{author{__typename login ... on Bot{databaseId}}}}}}}`, nil)
	a := dig(t, doc, "data", "repository", "pullRequest", "comments", "nodes", 0, "author")
	if dig(t, a, "__typename") != "Bot" || dig(t, a, "login") != CodexAppSlug || dig(t, a, "databaseId") != float64(CodexBotID) {
		t.Errorf("GraphQL author = %v", a)
	}
}
