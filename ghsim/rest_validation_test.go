package ghsim

import (
	"fmt"
	"testing"
)

// Write endpoints reject a blank body with GitHub's 422 field error, after
// the target itself is found; read endpoints answer 422 for a ref that
// names no commit.
func TestRESTValidationErrors(t *testing.T) {
	f := newFixture(t)
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: "root", Path: "a.go", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	reply := fmt.Sprintf("/repos/acme/app/pulls/7/comments/%d/replies", th.Comments[0].ID)
	for _, c := range []struct{ path, resource string }{
		{"/repos/acme/app/issues/7/comments", "IssueComment"},
		{reply, "PullRequestReviewComment"},
	} {
		r := f.do("POST", c.path, map[string]any{"body": " \n\t"})
		if r.status != 422 || dig(t, r.json(t), "message") != "Validation Failed" {
			t.Fatalf("%s: blank body: %d %s", c.path, r.status, r.body)
		}
		e := dig(t, r.json(t), "errors", 0)
		if dig(t, e, "resource") != c.resource || dig(t, e, "field") != "body" || dig(t, e, "code") != "missing_field" {
			t.Errorf("%s: error %v", c.path, e)
		}
		if r := f.do("POST", c.path, "not an object"); r.status != 400 {
			t.Errorf("%s: a non-object body: %d %s", c.path, r.status, r.body)
		}
	}
	if r := f.do("POST", "/repos/acme/app/pulls/7/comments/999999/replies", map[string]any{"body": ""}); r.status != 404 {
		t.Errorf("reply to an unknown comment: %d %s, want 404 before the body is read", r.status, r.body)
	}
	if n := len(f.restList("/repos/acme/app/issues/7/comments")); n != 0 {
		t.Errorf("a rejected comment was stored: %d comments", n)
	}
	for _, path := range []string{
		"/repos/acme/app/commits/nosuchbranch/check-runs",
		"/repos/acme/app/commits/nosuchbranch/status",
	} {
		r := f.do("GET", path, nil)
		if r.status != 422 || dig(t, r.json(t), "message") != "No commit found for SHA: nosuchbranch" {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	if r := f.do("GET", "/repos/acme/nope/commits/topic/status", nil); r.status != 404 {
		t.Errorf("unknown repository: %d %s", r.status, r.body)
	}
}
