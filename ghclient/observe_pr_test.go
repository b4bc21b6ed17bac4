package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

var octoHello = Repo{Owner: "octo", Name: "hello"}

func diffPR(t *testing.T, got, want *observe.PR) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, w := reflect.ValueOf(*got), reflect.ValueOf(*want)
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			gs, ws := fmt.Sprintf("%+v", g.Field(i).Interface()), fmt.Sprintf("%+v", w.Field(i).Interface())
			t.Errorf("%s differs:\n got %.600s\nwant %.600s", g.Type().Field(i).Name, gs, ws)
		}
	}
}

func TestObservePRPaginatesEveryConnectionToCompletion(t *testing.T) {
	f := newFakeGitHub(t)
	b := prFixture{comments: 250, reviews: 130, threads: 120, longThread: 7, longThreadComments: 230,
		reactions: 150, checkRuns: 60, statuses: 61}.build()
	b.install(f)
	c, _ := newTestClient(t, f, nil)
	pr, cost, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	diffPR(t, pr, b.expected)
	if len(pr.IssueComments) != 250 || len(pr.Threads[7].Comments) != 230 || len(pr.Statuses) != 61 {
		t.Fatalf("counts: %d comments, %d in long thread, %d statuses", len(pr.IssueComments), len(pr.Threads[7].Comments), len(pr.Statuses))
	}
	// Page 1 of everything; then one batch with the second page of the five
	// longer connections; then one with the third page of the two longest.
	// (Reactions come in groups of 75 and need no second page.)
	gql, _ := f.calls()
	if gql != 3 || cost.Requests != 3 {
		t.Fatalf("GraphQL calls %d, cost.Requests %d; want 3", gql, cost.Requests)
	}
	if !strings.Contains(f.docs[1], "n0: node") || strings.Count(f.docs[1], "after:") != 5 || strings.Count(f.docs[2], "after:") != 2 {
		t.Fatalf("follow-ups not batched as expected:\n%s\n%s", f.docs[1], f.docs[2])
	}
	if cost.GraphQLPoints < 3 || cost.GraphQLRemaining < 0 {
		t.Fatalf("cost not reported: %+v", cost)
	}
}

func TestObservePRUnchangedCostsOnePoint(t *testing.T) {
	f := newFakeGitHub(t)
	b := prFixture{comments: 100, reviews: 100, threads: 100, reactions: 100, checkRuns: 50, statuses: 50}.build()
	b.install(f)
	c, _ := newTestClient(t, f, nil)
	first, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, cost, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Fatal("re-observation differs")
	}
	if cost.GraphQLPoints > 1 || cost.Requests != 1 {
		t.Fatalf("re-observing an unchanged PR cost %+v; want ≤1 point in 1 request", cost)
	}
}

func TestObservePRBotAuthorsAreTyped(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{comments: 3}.build().install(f)
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	if a := pr.IssueComments[0].Author; a.Type != "Bot" || a.ID != codexBotID {
		t.Fatalf("bot author decoded as %+v", a)
	}
	if a := pr.IssueComments[1].Author; a.Type != "User" || a.ID != 1001 {
		t.Fatalf("user author decoded as %+v", a)
	}
	if a := pr.IssueComments[2].Author; a != (observe.Actor{}) {
		t.Fatalf("deleted author decoded as %+v", a)
	}
}

func TestObservePRFailsWhenAFollowUpPageFails(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{comments: 150}.build().install(f)
	f.fault = func(w http.ResponseWriter, r *http.Request, gql bool, n int) bool {
		if gql && n >= 2 {
			w.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	}
	c, clock := newTestClient(t, f, func(o *Options) { o.MaxAttempts = 3 })
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	var giveUp *GiveUpError
	if pr != nil || !errors.As(err, &giveUp) {
		t.Fatalf("got pr=%v err=%v; want no PR and a GiveUpError", pr != nil, err)
	}
	if gql, _ := f.calls(); gql != 4 || len(clock.slept()) != 2 {
		t.Fatalf("calls %d sleeps %v; want 1 + 3 attempts and 2 backoffs", gql, clock.slept())
	}
}

func TestObservePRFailsOnGraphQLErrors(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{comments: 150}.build().install(f)
	f.fault = func(w http.ResponseWriter, r *http.Request, gql bool, n int) bool {
		if gql && n == 2 {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"data":{"rateLimit":{"cost":1,"remaining":1},"n0":null},"errors":[{"type":"NOT_FOUND","message":"Could not resolve to a node","path":["n0"]}]}`)
			return true
		}
		return false
	}
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if pr != nil || err == nil || !strings.Contains(err.Error(), "Could not resolve") {
		t.Fatalf("got pr=%v err=%v", pr != nil, err)
	}
}

func TestObservePRFailsOnMissingData(t *testing.T) {
	f := newFakeGitHub(t)
	b := prFixture{comments: 3}.build()
	b.pr.fields["comments"].(*conn).items[1] = nil
	b.install(f)
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if pr != nil || !errors.Is(err, ErrIncomplete) {
		t.Fatalf("got pr=%v err=%v; want ErrIncomplete", pr != nil, err)
	}
}

func TestObservePRUnknownPullRequestIsAnError(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{}.build().install(f)
	c, _ := newTestClient(t, f, nil)
	if pr, _, err := c.ObservePR(context.Background(), octoHello, 8); pr != nil || err == nil {
		t.Fatalf("got pr=%v err=%v", pr != nil, err)
	}
}

func TestObservePRRestartsWhenHeadMovesBetweenPages(t *testing.T) {
	head := "1111111111111111111111111111111111111111"
	f := newFakeGitHub(t)
	b := prFixture{comments: 150, head: &head}.build()
	b.install(f)
	moved := "4444444444444444444444444444444444444444"
	f.fault = func(w http.ResponseWriter, r *http.Request, gql bool, n int) bool {
		if gql && n == 2 {
			head = moved // a push lands between page 1 and page 2
		}
		return false
	}
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	if pr.PullRequest.HeadSHA != moved || len(pr.IssueComments) != 150 || !pr.ChecksRead {
		t.Fatalf("head %s, %d comments, checks read %v", pr.PullRequest.HeadSHA, len(pr.IssueComments), pr.ChecksRead)
	}
	if gql, _ := f.calls(); gql != 4 {
		t.Fatalf("GraphQL calls %d; want 2 (stale) + 2 (fresh)", gql)
	}
}

func TestObservePRGivesUpOnAPullRequestThatKeepsMoving(t *testing.T) {
	head := "1111111111111111111111111111111111111111"
	f := newFakeGitHub(t)
	prFixture{comments: 150, head: &head}.build().install(f)
	f.fault = func(w http.ResponseWriter, r *http.Request, gql bool, n int) bool {
		head = fmt.Sprintf("%040d", n)
		return false
	}
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if pr != nil || !errors.Is(err, ErrIncomplete) {
		t.Fatalf("got pr=%v err=%v", pr != nil, err)
	}
}

func TestObservePRChecksOfAnotherCommitAreUnknown(t *testing.T) {
	f := newFakeGitHub(t)
	b := prFixture{checkRuns: 2}.build()
	commit := b.pr.fields["commits"].(*conn).items[0].fields["commit"].(*obj)
	commit.fields["oid"] = "5555555555555555555555555555555555555555"
	b.install(f)
	c, _ := newTestClient(t, f, nil)
	pr, _, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	if pr.ChecksRead || len(pr.CheckRuns) != 0 {
		t.Fatalf("checks of a non-head commit used: read=%v runs=%d", pr.ChecksRead, len(pr.CheckRuns))
	}
}

// TestObservePRReadsAReactionGroupBeyondOnePageOverREST: one content with
// more than 100 reactors cannot be paged inside the list of groups, so the
// PR's reactions come from the REST list instead, every page of it.
func TestObservePRReadsAReactionGroupBeyondOnePageOverREST(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{comments: 2, reactions: 210}.build().install(f) // 105 👀, 105 👍
	f.rest["/repos/octo/hello/issues/7/reactions"] = reactionsPages(230, "api.github.com", 0)
	c, _ := newTestClient(t, f, nil)
	pr, cost, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Reactions) != 230 || pr.Reactions[229].User.ID != 239 || pr.Reactions[0].Subject != "pr" {
		t.Fatalf("%d reactions, last %+v", len(pr.Reactions), pr.Reactions[len(pr.Reactions)-1])
	}
	if gql, rest := f.calls(); gql != 1 || rest != 3 || cost.Requests != 4 {
		t.Fatalf("GraphQL %d REST %d cost %+v; want 1 query and 3 REST pages", gql, rest, cost)
	}
}

func TestObservePRFailsWhenTheReactionFallbackFails(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{reactions: 210}.build().install(f)
	f.rest["/repos/octo/hello/issues/7/reactions"] = reactionsPages(230, "api.github.com", 2)
	c, _ := newTestClient(t, f, func(o *Options) { o.MaxAttempts = 1 })
	if pr, _, err := c.ObservePR(context.Background(), octoHello, 7); pr != nil || err == nil {
		t.Fatalf("got pr=%v err=%v; want no PR", pr != nil, err)
	}
}
