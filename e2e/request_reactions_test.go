package e2e

import (
	"context"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

func reactionsOn(obs *observe.PR, subject string) []observe.Reaction {
	var out []observe.Reaction
	for _, r := range obs.Reactions {
		if r.Subject == subject {
			r.User.Login = "" // GraphQL drops the "[bot]" REST shows; ids and types agree
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt+out[i].Content < out[j].CreatedAt+out[j].Content })
	return out
}

// The review request's reactions (👀, a clean round's 👍) with their times
// come in the same GraphQL query as the rest of the observation once the
// request is known, at the same cost as before: one query, one point, and
// no REST request at all. They are the reactions REST reports.
func TestRequestReactionsInTheSameQuery(t *testing.T) {
	e := newEnv(t)
	first := playFixRound(t, e, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	if first.RequestNodeID == "" {
		t.Fatal("the reading found no request node id")
	}
	req := requestComment(t, first.Obs, ghsim.DemoFollowUpRequestBody)
	viaREST := reactionsOn(first.Obs, strconv.FormatInt(req.ID, 10))
	if len(viaREST) != 2 { // 👀 then 👍
		t.Fatalf("REST read %v", viaREST)
	}

	before := e.sim.Stats()
	again, err := inspect.ObserveWithRequest(context.Background(), e.client, demoRepo, ghsim.DemoPR, first.RequestNodeID)
	if err != nil {
		t.Fatal(err)
	}
	after := e.sim.Stats()
	if c := again.Cost; c.Requests != 1 || c.GraphQLPoints != 1 || c.RESTCharged != 0 || c.NotModified != 0 {
		t.Errorf("cost %+v, want one query of one point and no REST", c)
	}
	if n := (after.REST - before.REST); n != 0 {
		t.Errorf("simulator answered %d REST requests", n)
	}
	if got := reactionsOn(again.Obs, strconv.FormatInt(req.ID, 10)); !reflect.DeepEqual(got, viaREST) {
		t.Errorf("GraphQL read %+v, REST read %+v", got, viaREST)
	}
	if again.Verdict.Classification != "zero-findings" || !reflect.DeepEqual(again.State.Responses, first.State.Responses) {
		t.Errorf("verdict %+v", again.Verdict)
	}

	// A node id that is not an issue comment (here the PR's) says nothing
	// about the request: its reactions are read over REST instead.
	stale, err := inspect.ObserveWithRequest(context.Background(), e.client, demoRepo, ghsim.DemoPR, e.pr.Data().NodeID)
	if err != nil {
		t.Fatal(err)
	}
	if stale.Cost.Requests != 2 || !reflect.DeepEqual(reactionsOn(stale.Obs, strconv.FormatInt(req.ID, 10)), viaREST) {
		t.Errorf("stale hint: cost %+v reactions %+v", stale.Cost, reactionsOn(stale.Obs, strconv.FormatInt(req.ID, 10)))
	}
}

// More than 100 reactors of one emoji on the request do not fit the query's
// page: that comment's reactions are then read whole over REST, never cut.
func TestRequestReactionsBeyondOnePageFallBackToREST(t *testing.T) {
	e := newEnv(t)
	first := playFixRound(t, e, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	req := requestComment(t, first.Obs, ghsim.DemoFollowUpRequestBody)
	for i := range 101 {
		fan := e.sim.AddAccount(ghsim.Account{Login: "fan" + strconv.Itoa(i), Type: ghsim.TypeUser})
		if _, err := e.pr.AddCommentReaction(req.ID, ghsim.Reaction{Content: "+1", User: fan, CreatedAt: e.clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := inspect.ObserveWithRequest(context.Background(), e.client, demoRepo, ghsim.DemoPR, first.RequestNodeID)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(reactionsOn(r.Obs, strconv.FormatInt(req.ID, 10))); got != 103 {
		t.Fatalf("%d reactions on the request, want 103 (👀, the bot's 👍, 101 fans)", got)
	}
	if r.Cost.Requests != 3 || r.Cost.GraphQLPoints != 1 || r.Verdict.Classification != "zero-findings" { // the query, then two REST pages of 100
		t.Errorf("cost %+v verdict %+v", r.Cost, r.Verdict)
	}
}
