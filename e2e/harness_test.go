package e2e

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
)

// token is what the client sends; the simulator accepts any token as its
// viewer until a test registers tokens.
const token = "ghp_e2eLoopbackToken0000000000000000000"

// start is the simulated "now" of every test that drives the clock by hand.
var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

var demoRepo = ghclient.Repo{Owner: "octo-org", Name: "widgets"}

// productionClient is ghclient as the CLI builds it, except for the two
// things a loopback test must change: where requests go and the token.
// Host is given explicitly only so that a developer's own gh config (GH_HOST,
// hosts.yml) cannot leak into the test; "github.com" is also the default.
func productionClient(tb testing.TB, transport http.RoundTripper) *ghclient.Client {
	tb.Helper()
	c, err := ghclient.New(ghclient.Options{Host: "github.com", Token: token, BaseTransport: transport})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// env is a simulator on a manual clock with the demo world seeded, and a
// client whose sleeps advance that clock, so that backoffs and rate-limit
// waits take no real time and can be asserted exactly.
type env struct {
	tb     testing.TB
	clock  *ghsim.ManualClock
	sim    *ghsim.Server
	pr     *ghsim.PR
	client *ghclient.Client

	mu    sync.Mutex
	slept []time.Duration
	waits []string
}

func newEnv(tb testing.TB, tweak ...func(*ghclient.Options)) *env {
	tb.Helper()
	e := &env{tb: tb, clock: ghsim.NewManualClock(start)}
	e.sim = ghsim.New(ghsim.Options{Clock: e.clock.Now})
	tb.Cleanup(e.sim.Close)
	e.pr = ghsim.SeedDemo(e.sim)
	opts := ghclient.Options{
		Host: "github.com", Token: token, BaseTransport: e.sim.Transport(),
		Now: e.clock.Now, Sleep: e.sleep, OnWait: e.onWait,
	}
	for _, f := range tweak {
		f(&opts)
	}
	c, err := ghclient.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	e.client = c
	return e
}

func (e *env) sleep(ctx context.Context, d time.Duration) error {
	e.mu.Lock()
	e.slept = append(e.slept, d)
	e.mu.Unlock()
	e.clock.Advance(d)
	return ctx.Err()
}

func (e *env) onWait(reason string, d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	// Recorded as the CLI prints it (cmd/gh-prloop waitNotice).
	e.waits = append(e.waits, fmt.Sprintf("%s; waiting %s", reason, d.Round(time.Second)))
}

func (e *env) sleeps() []time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Duration(nil), e.slept...)
}

func (e *env) waitReasons() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.waits...)
}

// charged is what the simulator counted against the REST core budget.
func charged(st ghsim.Stats) int { return st.REST - st.REST304 }
