package ghsim

import (
	"errors"
	"testing"
)

// PATCH /pulls/{n} closes and reopens a PR as GitHub does: the new state
// is in the answer, in GET and in GraphQL; a bad state is a 422 naming
// the field; a merged PR cannot be reopened.
func TestUpdatePullClosesAndReopens(t *testing.T) {
	f := newFixture(t)
	if r := f.do("PATCH", "/repos/acme/app/pulls/7", map[string]any{"state": "shut"}); r.status != 422 ||
		dig(t, r.json(t), "errors", 0, "field") != "state" {
		t.Fatalf("bad state: %d %s", r.status, r.body)
	}
	r := f.do("PATCH", "/repos/acme/app/pulls/7", map[string]any{"state": "closed"})
	if r.status != 200 || dig(t, r.json(t), "state") != "closed" || dig(t, r.json(t), "merged") != false || dig(t, r.json(t), "closed_at") == nil {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	if d := f.pr.Data(); d.State != "closed" || d.Merged {
		t.Fatalf("after close: %+v", d)
	}
	q := f.graphql(`query{repository(owner:"acme",name:"app"){pullRequest(number:7){state merged}}}`, nil)
	if dig(t, q, "data", "repository", "pullRequest", "state") != "CLOSED" {
		t.Fatalf("GraphQL after close: %v", q)
	}
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil); r.status != 405 {
		t.Fatalf("merge of a closed PR: %d %s", r.status, r.body)
	}
	if r := f.do("PATCH", "/repos/acme/app/pulls/7", map[string]any{"state": "open", "title": "Again"}); r.status != 200 ||
		dig(t, r.json(t), "state") != "open" || dig(t, r.json(t), "title") != "Again" {
		t.Fatalf("reopen: %d %s", r.status, r.body)
	}
	if r := f.do("PATCH", "/repos/acme/app/pulls/8", map[string]any{"state": "closed"}); r.status != 404 {
		t.Fatalf("unknown PR: %d %s", r.status, r.body)
	}
}

// PUT /pulls/{n}/merge: 409 when sha is not the head, 422 for an unknown
// method, 405 while conflicting or a draft; success answers {sha, merged,
// message}, closes the PR as merged (REST and GraphQL MERGED), moves the
// base branch to the merge commit made by the Merger and logs it as a push
// of the base; a second merge is refused.
func TestMergePull(t *testing.T) {
	f := newFixture(t)
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", map[string]any{"sha": shaA}); r.status != 409 ||
		dig(t, r.json(t), "message") != "Head branch was modified. Review and try the merge again." {
		t.Fatalf("stale sha: %d %s", r.status, r.body)
	}
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", map[string]any{"merge_method": "octopus"}); r.status != 422 ||
		dig(t, r.json(t), "errors", 0, "field") != "merge_method" {
		t.Fatalf("bad method: %d %s", r.status, r.body)
	}
	f.pr.Update(func(p *PullRequest) { p.Mergeable = "CONFLICTING" })
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil); r.status != 405 || dig(t, r.json(t), "message") != "Pull Request is not mergeable" {
		t.Fatalf("conflicting: %d %s", r.status, r.body)
	}
	f.pr.Update(func(p *PullRequest) { p.Mergeable, p.Draft = "MERGEABLE", true })
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil); r.status != 405 {
		t.Fatalf("draft: %d %s", r.status, r.body)
	}
	f.pr.Update(func(p *PullRequest) { p.Draft = false })
	if d := f.pr.Data(); d.State != "open" || d.Merged {
		t.Fatalf("a refused merge changed the PR: %+v", d)
	}

	var asked MergeRequest
	f.s.SetMerger(func(m MergeRequest) (string, error) { asked = m; return shaC, nil })
	r := f.do("PUT", "/repos/acme/app/pulls/7/merge", map[string]any{"sha": shaB, "commit_title": "Ship it"})
	if r.status != 200 || dig(t, r.json(t), "sha") != shaC || dig(t, r.json(t), "merged") != true ||
		dig(t, r.json(t), "message") != "Pull Request successfully merged" {
		t.Fatalf("merge: %d %s", r.status, r.body)
	}
	if asked.Base != "main" || asked.Head != "topic" || asked.BaseSHA != shaA || asked.HeadSHA != shaB || asked.Title != "Ship it" || asked.Method != "merge" {
		t.Fatalf("merger asked %+v", asked)
	}
	if d := f.pr.Data(); d.State != "closed" || !d.Merged || d.BaseSHA != shaC {
		t.Fatalf("after merge: %+v", d)
	}
	if main, _ := f.repo.Branch("main"); main != shaC {
		t.Fatalf("main at %s", main)
	}
	got := f.do("GET", "/repos/acme/app/pulls/7", nil).json(t)
	if dig(t, got, "merged") != true || dig(t, got, "merged_at") == nil || dig(t, got, "state") != "closed" {
		t.Fatalf("GET after merge: %v", got)
	}
	q := f.graphql(`query{repository(owner:"acme",name:"app"){pullRequest(number:7){state merged}}}`, nil)
	if dig(t, q, "data", "repository", "pullRequest", "state") != "MERGED" {
		t.Fatalf("GraphQL after merge: %v", q)
	}
	pushes := f.repo.Pushes()
	if len(pushes) == 0 || pushes[len(pushes)-1] != (Push{Ref: "refs/heads/main", Before: shaA, After: shaC, At: pushes[len(pushes)-1].At}) {
		t.Fatalf("push log %+v", pushes)
	}
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil); r.status != 405 {
		t.Fatalf("second merge: %d %s", r.status, r.body)
	}
	if r := f.do("PATCH", "/repos/acme/app/pulls/7", map[string]any{"state": "open"}); r.status != 422 {
		t.Fatalf("reopening a merged PR: %d %s", r.status, r.body)
	}
}

// A Merger that fails (a conflict only git sees) refuses the merge with
// 405 and changes nothing; without a Merger the merge commit is synthetic.
func TestMergePullMergerFails(t *testing.T) {
	f := newFixture(t)
	f.s.SetMerger(func(MergeRequest) (string, error) { return "", errors.New("conflict") })
	if r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil); r.status != 405 {
		t.Fatalf("merger failed: %d %s", r.status, r.body)
	}
	if d := f.pr.Data(); d.State != "open" || d.Merged || d.BaseSHA != shaA {
		t.Fatalf("a failed merge changed the PR: %+v", d)
	}
	f.s.SetMerger(nil)
	r := f.do("PUT", "/repos/acme/app/pulls/7/merge", nil)
	sha, _ := dig(t, r.json(t), "sha").(string)
	if r.status != 200 || len(sha) != 40 || sha == shaA || sha == shaB {
		t.Fatalf("synthetic merge: %d %s", r.status, r.body)
	}
	if d := f.pr.Data(); !d.Merged || d.BaseSHA != sha {
		t.Fatalf("after a synthetic merge: %+v", d)
	}
}
