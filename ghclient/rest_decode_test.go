package ghclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/ghclient/gqlschema"
)

// Decoders are checked against GitHub's own OpenAPI examples: the fake
// serves each example file verbatim and the expected values are read from
// the same file through a generic decode, independently of ghclient's types.

var restExamples = filepath.Join(gqlschema.ReferenceDir(), "rest-examples")

func example(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(restExamples, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func generic(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// at walks a generic JSON value: string keys for objects, ints for arrays.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func num(v any) int64 { return int64(v.(float64)) }

// serveExample answers path with the example file (and status).
func serveExample(t *testing.T, f *fakeGitHub, path, file string, status int) {
	body := example(t, file)
	f.rest[path] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		w.Write(body)
	}
}

func TestViewerDecodesBothUserExamples(t *testing.T) {
	for _, file := range []string{
		"users-get-authenticated.response-with-public-and-private-profile-information.json",
		"users-get-authenticated.response-with-public-profile-information.json",
	} {
		f := newFakeGitHub(t)
		serveExample(t, f, "/user", file, 200)
		c, _ := newTestClient(t, f, nil)
		login, id, err := c.Viewer(context.Background())
		want := generic(t, example(t, file))
		if err != nil || login != at(want, "login") || id != num(at(want, "id")) {
			t.Fatalf("%s: %q %d %v", file, login, id, err)
		}
	}
}

func checkPRInfo(t *testing.T, got *PRInfo, want any) {
	t.Helper()
	checks := map[string][2]any{
		"number":  {got.Number, num(at(want, "number"))},
		"url":     {got.URL, at(want, "html_url")},
		"title":   {got.Title, at(want, "title")},
		"body":    {got.Body, at(want, "body")},
		"node_id": {got.NodeID, at(want, "node_id")},
		"head":    {got.HeadRefName, at(want, "head", "ref")},
		"headSHA": {got.HeadSHA, at(want, "head", "sha")},
		"base":    {got.BaseRefName, at(want, "base", "ref")},
		"baseSHA": {got.BaseSHA, at(want, "base", "sha")},
		"draft":   {got.IsDraft, at(want, "draft")},
		"repo":    {got.HeadRepo, at(want, "head", "repo", "full_name")},
	}
	for k, v := range checks {
		if v[0] != v[1] {
			t.Errorf("%s: got %v want %v", k, v[0], v[1])
		}
	}
}

func TestPullRequestDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/pulls/1347", "pulls-get.json", 200)
	c, _ := newTestClient(t, f, nil)
	pr, cost, err := c.PullRequestByURL(context.Background(), "https://github.com/octocat/Hello-World/pull/1347")
	if err != nil {
		t.Fatal(err)
	}
	checkPRInfo(t, pr, generic(t, example(t, "pulls-get.json")))
	// The example: open, merged=false, mergeable=true, mergeable_state=clean, same repository.
	if pr.State != "OPEN" || pr.Mergeable != "MERGEABLE" || pr.MergeStateStatus != "CLEAN" || pr.IsCrossRepository || pr.ReviewDecision != "" {
		t.Fatalf("mapped %+v", pr.PullRequest)
	}
	if cost.Requests != 1 {
		t.Fatalf("cost %+v", cost)
	}
}

func TestOpenPRsForHeadDecodesListExample(t *testing.T) {
	f := newFakeGitHub(t)
	body := example(t, "pulls-list.json")
	var gotQuery string
	f.rest["/repos/octocat/Hello-World/pulls"] = func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		writeJSON(w, 200, string(body))
	}
	c, _ := newTestClient(t, f, nil)
	prs, _, err := c.OpenPRsForHead(context.Background(), Repo{"octocat", "Hello-World"}, "octocat", "new-topic")
	if err != nil || len(prs) != 1 {
		t.Fatalf("%d PRs, %v", len(prs), err)
	}
	checkPRInfo(t, &prs[0], at(generic(t, body), 0))
	if gotQuery != "head=octocat%3Anew-topic&per_page=100&state=open" {
		t.Fatalf("query %q", gotQuery)
	}
	if prs[0].Mergeable != "" || prs[0].MergeStateStatus != "" {
		t.Fatal("list answer has no mergeability; it must stay empty, not be guessed")
	}
}

func TestCreatePRSendsFieldsAndDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	body := example(t, "pulls-create.json")
	var sent map[string]any
	f.rest["/repos/octocat/Hello-World/pulls"] = func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			t.Errorf("method %s", r.Method)
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &sent)
		writeJSON(w, 201, string(body))
	}
	c, _ := newTestClient(t, f, nil)
	pr, err := c.CreatePR(context.Background(), Repo{"octocat", "Hello-World"}, NewPR{Title: "T", Body: "B", Head: "new-topic", Base: "master", Draft: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPRInfo(t, pr, generic(t, body))
	if sent["title"] != "T" || sent["body"] != "B" || sent["head"] != "new-topic" || sent["base"] != "master" || sent["draft"] != true {
		t.Fatalf("sent %v", sent)
	}
}

func TestPostCommentDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/issues/1347/comments", "issues-create-comment.json", 201)
	c, _ := newTestClient(t, f, nil)
	ic, err := c.PostComment(context.Background(), Repo{"octocat", "Hello-World"}, 1347, "Me too")
	if err != nil {
		t.Fatal(err)
	}
	want := generic(t, example(t, "issues-create-comment.json"))
	if ic.ID != num(at(want, "id")) || ic.NodeID != at(want, "node_id") || ic.Body != at(want, "body") ||
		ic.Author.Login != at(want, "user", "login") || ic.Author.Type != at(want, "user", "type") ||
		ic.CreatedAt != at(want, "created_at") || ic.UpdatedAt != at(want, "updated_at") {
		t.Fatalf("decoded %+v", ic)
	}
}

func TestIssueCommentListExampleDecodes(t *testing.T) {
	b := example(t, "issues-list-comments.json")
	var list []*restIssueComment
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	want := generic(t, b)
	if len(list) != len(want.([]any)) {
		t.Fatal("length")
	}
	for i, c := range list {
		o := c.observe()
		if o.ID != num(at(want, i, "id")) || o.Author.ID != num(at(want, i, "user", "id")) || o.Body != at(want, i, "body") {
			t.Fatalf("item %d: %+v", i, o)
		}
	}
}

func TestReactionsForCommentDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/issues/comments/1/reactions", "reactions-list-for-issue-comment.json", 200)
	c, _ := newTestClient(t, f, nil)
	rs, _, err := c.ReactionsForComment(context.Background(), Repo{"octocat", "Hello-World"}, 1)
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", rs, err)
	}
	want := generic(t, example(t, "reactions-list-for-issue-comment.json"))
	r := rs[0]
	if r.Content != at(want, 0, "content") || r.User.ID != num(at(want, 0, "user", "id")) || r.User.Type != at(want, 0, "user", "type") ||
		r.CreatedAt != at(want, 0, "created_at") || r.Subject != "1" {
		t.Fatalf("decoded %+v", r)
	}
}

func TestCheckRunsDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/commits/abc/check-runs", "checks-list-for-ref.json", 200)
	c, _ := newTestClient(t, f, nil)
	runs, _, err := c.CheckRuns(context.Background(), Repo{"octocat", "Hello-World"}, "abc")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%v %v", runs, err)
	}
	want := generic(t, example(t, "checks-list-for-ref.json"))
	if runs[0].Name != at(want, "check_runs", 0, "name") || runs[0].Status != at(want, "check_runs", 0, "status") || runs[0].Conclusion != at(want, "check_runs", 0, "conclusion") {
		t.Fatalf("decoded %+v", runs[0])
	}
}

func TestCombinedStatusDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/commits/abc/status", "repos-get-combined-status-for-ref.json", 200)
	c, _ := newTestClient(t, f, nil)
	st, _, err := c.CombinedStatus(context.Background(), Repo{"octocat", "Hello-World"}, "abc")
	if err != nil {
		t.Fatal(err)
	}
	want := generic(t, example(t, "repos-get-combined-status-for-ref.json"))
	if st.State != at(want, "state") || st.SHA != at(want, "sha") || len(st.Statuses) != len(at(want, "statuses").([]any)) {
		t.Fatalf("decoded %+v", st)
	}
	for i, s := range st.Statuses {
		if s.Context != at(want, "statuses", i, "context") || s.State != at(want, "statuses", i, "state") {
			t.Fatalf("status %d: %+v", i, s)
		}
	}
}

func TestBranchTipDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/git/ref/heads/featureA", "git-get-ref.json", 200)
	c, _ := newTestClient(t, f, nil)
	sha, _, err := c.BranchTip(context.Background(), Repo{"octocat", "Hello-World"}, "featureA")
	if err != nil || sha != at(generic(t, example(t, "git-get-ref.json")), "object", "sha") {
		t.Fatalf("%q %v", sha, err)
	}
	// The same answer for another branch name is not that branch's tip.
	serveExample(t, f, "/repos/octocat/Hello-World/git/ref/heads/featureB", "git-get-ref.json", 200)
	if _, _, err := c.BranchTip(context.Background(), Repo{"octocat", "Hello-World"}, "featureB"); err == nil {
		t.Fatal("tip of featureA accepted for featureB")
	}
}

func TestBranchRulesDecodesExample(t *testing.T) {
	f := newFakeGitHub(t)
	serveExample(t, f, "/repos/octocat/Hello-World/rules/branches/main", "repos-get-branch-rules.json", 200)
	c, _ := newTestClient(t, f, nil)
	rules, _, err := c.BranchRules(context.Background(), Repo{"octocat", "Hello-World"}, "main")
	want := generic(t, example(t, "repos-get-branch-rules.json"))
	if err != nil || len(rules) != len(want.([]any)) {
		t.Fatalf("%v %v", rules, err)
	}
	for i, r := range rules {
		var params any
		json.Unmarshal(r.Parameters, &params)
		if r.Type != at(want, i, "type") || r.RulesetSource != at(want, i, "ruleset_source") ||
			r.RulesetSourceType != at(want, i, "ruleset_source_type") || r.RulesetID != num(at(want, i, "ruleset_id")) ||
			at(params, "pattern") != at(want, i, "parameters", "pattern") {
			t.Fatalf("rule %d: %+v", i, r)
		}
	}
}

func TestNotFoundIsRecognised(t *testing.T) {
	f := newFakeGitHub(t)
	c, _ := newTestClient(t, f, nil)
	_, _, err := c.BranchTip(context.Background(), Repo{"octocat", "Hello-World"}, "gone")
	if !IsNotFound(err) {
		t.Fatalf("err %v", err)
	}
}
