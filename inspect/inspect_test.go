package inspect

import (
	"context"
	"errors"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghclient"
)

const head = "c0ffee5a1d2b3c4d5e6f708192a3b4c5d6e7f809"

// fakeObserver answers with obs and records the reaction reads.
type fakeObserver struct {
	obs          *observe.PR
	obsErr       error
	reactions    []observe.Reaction
	reactionsErr error
	asked        []int64
}

func (f *fakeObserver) ObservePRWithRequest(_ context.Context, _ ghclient.Repo, _ int64, hint string) (*observe.PR, bool, ghclient.Cost, error) {
	if f.obsErr != nil {
		return nil, false, ghclient.Cost{Requests: 1, RateRemaining: -1, GraphQLRemaining: -1}, f.obsErr
	}
	return f.obs, hint != "", ghclient.Cost{Requests: 1, GraphQLPoints: 1, RateRemaining: -1, GraphQLRemaining: 4999}, nil
}

func (f *fakeObserver) ReactionsForComment(_ context.Context, _ ghclient.Repo, id int64) ([]observe.Reaction, ghclient.Cost, error) {
	f.asked = append(f.asked, id)
	return f.reactions, ghclient.Cost{Requests: 1, NotModified: 1, RateRemaining: 4990, GraphQLRemaining: -1}, f.reactionsErr
}

func prWith(comments ...observe.IssueComment) *observe.PR {
	return &observe.PR{
		Repository: "octo/hello", ViewerID: 1, ObservedAt: "2026-03-02T10:00:00Z",
		PullRequest: observe.PullRequest{Number: 7, State: "OPEN", HeadSHA: head, BaseSHA: head, HeadRefName: "topic", BaseRefName: "main",
			URL: "https://github.com/octo/hello/pull/7", Mergeable: "MERGEABLE", MergeStateStatus: "CLEAN"},
		IssueComments: comments, Reviews: []observe.Review{}, ReviewComments: []observe.ReviewComment{},
		Threads: []observe.Thread{}, Reactions: []observe.Reaction{}, CheckRuns: []observe.CheckRun{}, Statuses: []observe.CommitStatus{},
		ChecksRead: true,
	}
}

var codex = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "User"}

func TestObserveReadsTheRequestsReactions(t *testing.T) {
	f := &fakeObserver{
		obs:       prWith(observe.IssueComment{ID: 77, Author: observe.Actor{Login: "me", ID: 1, Type: "User"}, Body: "@codex review", CreatedAt: "2026-03-02T09:59:00Z"}),
		reactions: []observe.Reaction{{Content: "eyes", User: codex, CreatedAt: "2026-03-02T09:59:30Z", Subject: "77"}},
	}
	r, err := Observe(context.Background(), f, ghclient.Repo{Owner: "octo", Name: "hello"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.asked) != 1 || f.asked[0] != 77 {
		t.Fatalf("reactions read for %v, want the request 77", f.asked)
	}
	if !r.Classified.Live.Reviewing {
		t.Errorf("Codex's 👀 on the request did not read as reviewing: %+v", r.Classified.Live)
	}
	if r.Cost.Requests != 2 || r.Cost.NotModified != 1 || r.Cost.GraphQLPoints != 1 || r.Cost.RateRemaining != 4990 || r.Cost.GraphQLRemaining != 4999 {
		t.Errorf("cost of both reads not summed: %+v", r.Cost)
	}
}

func TestObserveWithoutARequestReadsNoReactions(t *testing.T) {
	f := &fakeObserver{obs: prWith(observe.IssueComment{ID: 5, Author: observe.Actor{Login: "me", ID: 1, Type: "User"}, Body: "hello", CreatedAt: "2026-03-02T09:00:00Z"})}
	if _, err := Observe(context.Background(), f, ghclient.Repo{Owner: "octo", Name: "hello"}, 7); err != nil {
		t.Fatal(err)
	}
	if len(f.asked) != 0 {
		t.Errorf("reactions read for %v with no request on the PR", f.asked)
	}
}

func TestObserveFailuresAreNeverClassified(t *testing.T) {
	boom := errors.New("boom")
	for name, f := range map[string]*fakeObserver{
		"observation": {obsErr: boom},
		"reactions": {obs: prWith(observe.IssueComment{ID: 77, Author: observe.Actor{Login: "me", ID: 1, Type: "User"}, Body: "@codex review", CreatedAt: "2026-03-02T09:59:00Z"}),
			reactionsErr: boom},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Observe(context.Background(), f, ghclient.Repo{Owner: "octo", Name: "hello"}, 7)
			if r != nil || !errors.Is(err, boom) {
				t.Fatalf("got %v, %v; want no result and the error", r, err)
			}
		})
	}
}
