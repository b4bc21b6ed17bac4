package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// Benchmarks of one report-only observation (inspect.Observe: the bulk
// GraphQL read, its follow-ups, and the request's reactions over REST)
// against the simulator. Time per op is loopback time and says little; the
// reported metrics are what GitHub would count:
//
//	roundtrips/op   HTTP requests, retries included
//	points/op       GraphQL points by GitHub's formula (ghsim/graphql_cost.go)
//	rest-charged/op REST requests charged to the core budget (304s are free)
//
// cost_test.go asserts the acceptance bounds on the same counts.

// benchSim has limits no benchmark can exhaust, so that b.N never ends in a
// rate-limit wait.
func benchSim(b *testing.B) *ghsim.Server {
	sim := ghsim.New(ghsim.Options{CoreLimit: 1 << 40, GraphQLLimit: 1 << 40})
	b.Cleanup(sim.Close)
	return sim
}

func reportCost(b *testing.B, total ghclient.Cost) {
	n := float64(b.N)
	b.ReportMetric(float64(total.Requests)/n, "roundtrips/op")
	b.ReportMetric(float64(total.GraphQLPoints)/n, "points/op")
	b.ReportMetric(float64(total.RESTCharged)/n, "rest-charged/op")
}

// benchObserve observes repo#number b.N times. Cold: a new client (empty
// ETag cache) per op, i.e. a first observation. Warm: one client, i.e. a
// --watch refresh of an unchanged PR.
func benchObserve(b *testing.B, sim *ghsim.Server, repo ghclient.Repo, number int64, warm bool) {
	c := productionClient(b, sim.Transport())
	if warm {
		if _, err := inspect.Observe(context.Background(), c, repo, number); err != nil {
			b.Fatal(err)
		}
	}
	total := ghclient.Cost{}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if !warm {
			b.StopTimer()
			c = productionClient(b, sim.Transport())
			b.StartTimer()
		}
		r, err := inspect.Observe(context.Background(), c, repo, number)
		if err != nil {
			b.Fatal(err)
		}
		total.Add(r.Cost)
	}
	b.StopTimer()
	reportCost(b, total)
}

func BenchmarkObserveDemoPR(b *testing.B) {
	sim := benchSim(b)
	ghsim.SeedDemo(sim)
	benchObserve(b, sim, demoRepo, ghsim.DemoPR, false)
}

func BenchmarkObserve100Threads(b *testing.B) {
	sim := benchSim(b)
	seedShape(b, sim, time.Now(), smallShape)
	benchObserve(b, sim, bigRepo, bigNumber, false)
}

func BenchmarkReobserveUnchangedDemoPR(b *testing.B) {
	sim := benchSim(b)
	ghsim.SeedDemo(sim)
	benchObserve(b, sim, demoRepo, ghsim.DemoPR, true)
}

func BenchmarkReobserveUnchanged100Threads(b *testing.B) {
	sim := benchSim(b)
	seedShape(b, sim, time.Now(), smallShape)
	benchObserve(b, sim, bigRepo, bigNumber, true)
}

func BenchmarkObserve1000Threads5000Comments(b *testing.B) {
	sim := benchSim(b)
	seedShape(b, sim, time.Now(), bigShape)
	benchObserve(b, sim, bigRepo, bigNumber, false)
}

func BenchmarkReobserveUnchanged1000Threads5000Comments(b *testing.B) {
	sim := benchSim(b)
	seedShape(b, sim, time.Now(), bigShape)
	benchObserve(b, sim, bigRepo, bigNumber, true)
}
