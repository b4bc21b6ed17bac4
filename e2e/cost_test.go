package e2e

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// The acceptance bounds of issue 3, asserted on request counts (which are
// deterministic) rather than on time. bench_test.go reports the same
// numbers as benchmark metrics.
const (
	maxSmallRoundTrips = 2  // a PR with <= 100 threads and comments
	maxUnchangedPoints = 1  // re-observing an unchanged PR
	maxBigRoundTrips   = 15 // 1,000 threads and 5,000 comments
)

var (
	smallShape = shape{threads: 100, comments: 400, long: []int{100}, issue: 100}
	bigShape   = shape{threads: 1000, comments: 5000, long: []int{250, 180}, issue: 150}
)

// checkComplete fails unless obs holds exactly the simulator's PR.
func checkComplete(tb testing.TB, pr *ghsim.PR, obs *observe.PR) {
	tb.Helper()
	threads := pr.Threads()
	if len(obs.Threads) != len(threads) {
		tb.Fatalf("observed %d threads, seeded %d", len(obs.Threads), len(threads))
	}
	for i, th := range threads {
		got := obs.Threads[i]
		if got.ID != th.NodeID || len(got.Comments) != len(th.Comments) {
			tb.Fatalf("thread %d: %s with %d comments, seeded %s with %d", i, got.ID, len(got.Comments), th.NodeID, len(th.Comments))
		}
		for j := range th.Comments {
			if got.Comments[j].ID != th.Comments[j].ID {
				tb.Fatalf("thread %s comment %d: id %d, seeded %d", th.NodeID, j, got.Comments[j].ID, th.Comments[j].ID)
			}
		}
	}
	if n := len(pr.ReviewComments()); len(obs.ReviewComments) != n {
		tb.Fatalf("observed %d review comments, seeded %d", len(obs.ReviewComments), n)
	}
	if n := len(pr.Comments()); len(obs.IssueComments) != n {
		tb.Fatalf("observed %d conversation comments, seeded %d", len(obs.IssueComments), n)
	}
	if n := len(pr.Reviews()); len(obs.Reviews) != n {
		tb.Fatalf("observed %d reviews, seeded %d", len(obs.Reviews), n)
	}
}

func TestSmallPRInTwoRoundTrips(t *testing.T) {
	sim := ghsim.New(ghsim.Options{})
	t.Cleanup(sim.Close)
	pr := seedShape(t, sim, time.Now(), smallShape)
	c := productionClient(t, sim.Transport())

	r, err := inspect.Observe(context.Background(), c, bigRepo, bigNumber)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, pr, r.Obs)
	if r.Cost.Requests > maxSmallRoundTrips {
		t.Errorf("%d round trips, want <= %d (cost %+v)", r.Cost.Requests, maxSmallRoundTrips, r.Cost)
	}
	if st := sim.Stats(); st.GraphQL+st.REST != r.Cost.Requests {
		t.Errorf("client counted %d requests, simulator answered %d", r.Cost.Requests, st.GraphQL+st.REST)
	}
}

// TestUnchangedPRCostsNothingButOnePoint re-observes the demo PR and the
// 100-thread PR with the same client: GraphQL cannot be conditional, so the
// one bulk query is paid again (1 point), and the REST read of the request's
// reactions is a free 304.
func TestUnchangedPRCostsNothingButOnePoint(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   func(*ghsim.Server)
		repo   ghclient.Repo
		number int64
	}{
		{"demo", func(s *ghsim.Server) { ghsim.SeedDemo(s) }, demoRepo, ghsim.DemoPR},
		{"100 threads", func(s *ghsim.Server) { seedShape(t, s, time.Now(), smallShape) }, bigRepo, bigNumber},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim := ghsim.New(ghsim.Options{})
			t.Cleanup(sim.Close)
			tc.seed(sim)
			c := productionClient(t, sim.Transport())
			first, err := inspect.Observe(context.Background(), c, tc.repo, tc.number)
			if err != nil {
				t.Fatal(err)
			}
			before := sim.Stats()
			again, err := inspect.Observe(context.Background(), c, tc.repo, tc.number)
			if err != nil {
				t.Fatal(err)
			}
			after := sim.Stats()
			if again.Cost.RESTCharged != 0 || again.Cost.GraphQLPoints > maxUnchangedPoints {
				t.Errorf("unchanged re-observation cost %+v, want 0 charged REST and <= %d point", again.Cost, maxUnchangedPoints)
			}
			if again.Cost.NotModified != 1 {
				t.Errorf("the reactions read was not conditional: %+v", again.Cost)
			}
			if n := charged(after) - charged(before); n != 0 {
				t.Errorf("simulator charged %d REST requests", n)
			}
			if p := after.GraphQLPoints - before.GraphQLPoints; p > maxUnchangedPoints {
				t.Errorf("simulator charged %d GraphQL points", p)
			}
			again.State.ObservedAt = first.State.ObservedAt // the clock moves; nothing else may
			if !reflect.DeepEqual(again.Verdict, first.Verdict) || !reflect.DeepEqual(again.State, first.State) {
				t.Errorf("verdict or state changed on an unchanged PR: %+v vs %+v", first.Verdict, again.Verdict)
			}
		})
	}
}

func TestBigPRCompleteInFifteenRoundTrips(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 5,000 comments")
	}
	sim := ghsim.New(ghsim.Options{})
	t.Cleanup(sim.Close)
	pr := seedShape(t, sim, time.Now(), bigShape)
	if n := len(pr.Threads()); n != 1000 {
		t.Fatalf("seeded %d threads", n)
	}
	if n := len(pr.ReviewComments()); n != 5000 {
		t.Fatalf("seeded %d comments", n)
	}
	c := productionClient(t, sim.Transport())
	r, err := inspect.Observe(context.Background(), c, bigRepo, bigNumber)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, pr, r.Obs)
	if r.Cost.Requests > maxBigRoundTrips {
		t.Errorf("%d round trips, want <= %d (cost %+v)", r.Cost.Requests, maxBigRoundTrips, r.Cost)
	}
	t.Logf("1,000 threads / 5,000 comments: %+v", r.Cost)
}
