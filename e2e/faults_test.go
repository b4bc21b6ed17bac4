package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// Every fault ghsim can inject, end to end through inspect.Observe. A fault
// that clears (Times: 1) must end in a retry that succeeds, with exactly
// the announced pauses; one that persists must end in a clear error and
// no result at all: an observation that is not complete is never classified.

var (
	onGraphQL   = ghsim.Match{Kind: ghsim.KindGraphQL}
	onReactions = ghsim.Match{Kind: ghsim.KindREST, Path: "/repos/*/*/issues/comments/*/reactions"}
)

type faultCase struct {
	name  string
	fault ghsim.Fault
	opts  func(*ghclient.Options)
	// When the fault clears after one hit:
	sleeps []time.Duration // exactly these pauses, in order
	says   string          // one OnWait reason contains this
	// When it persists:
	persistentOpts func(*ghclient.Options)
	errIs          func(error) bool
	errSays        string
}

func isGiveUp(err error) bool { var g *ghclient.GiveUpError; return errors.As(err, &g) }
func isRateLimit(err error) bool {
	var r *ghclient.RateLimitError
	return errors.As(err, &r)
}

// shortTimeout is short next to the injected one-minute delay, yet long enough
// that an ordinary attempt under -race on a loaded 2-core CI machine never hits it.
func shortTimeout(o *ghclient.Options) { o.AttemptTimeout = 3 * time.Second }
func twoAttempts(o *ghclient.Options)  { o.MaxAttempts = 2; shortTimeout(o) }
func patient(o *ghclient.Options)      { o.MaxWait = 2 * time.Hour }

// hourReset is the wait for a primary window that opened at the refusal:
// an hour, plus the second ghclient adds for X-RateLimit-Reset's precision.
const hourReset = time.Hour + time.Second

func faultCases() []faultCase {
	return []faultCase{
		{name: "502 on GraphQL", fault: ghsim.Fault{Kind: ghsim.FaultStatus, Status: 502, Match: onGraphQL},
			sleeps: []time.Duration{time.Second}, says: "HTTP 502",
			errIs: isGiveUp, errSays: "gave up after 4 attempts: HTTP 502"},
		{name: "503 on REST", fault: ghsim.Fault{Kind: ghsim.FaultStatus, Status: 503, Match: onReactions},
			sleeps: []time.Duration{time.Second}, says: "HTTP 503",
			errIs: isGiveUp, errSays: "gave up after 4 attempts: HTTP 503"},
		{name: "timeout", fault: ghsim.Fault{Kind: ghsim.FaultDelay, Delay: time.Minute, Match: onGraphQL},
			opts: shortTimeout, sleeps: []time.Duration{time.Second}, says: "deadline exceeded",
			persistentOpts: twoAttempts, errIs: isGiveUp, errSays: "gave up after 2 attempts"},
		{name: "dropped connection", fault: ghsim.Fault{Kind: ghsim.FaultDrop, Match: onGraphQL},
			sleeps: []time.Duration{time.Second}, says: "GitHub request failed",
			errIs: isGiveUp, errSays: "gave up after 4 attempts"},
		// net/http itself resends an idempotent GET whose kept-alive
		// connection closed before any answer, so no backoff is needed.
		{name: "dropped REST connection", fault: ghsim.Fault{Kind: ghsim.FaultDrop, Match: onReactions},
			errIs: isGiveUp, errSays: "gave up after 4 attempts"},
		{name: "secondary limit", fault: ghsim.Fault{Kind: ghsim.FaultSecondaryLimit, RetryAfter: 90 * time.Second, Match: onGraphQL},
			sleeps: []time.Duration{90 * time.Second}, says: "secondary rate limit; waiting 1m30s",
			// Retry-After beyond MaxWait is refused at once rather than slept.
			persistentOpts: func(o *ghclient.Options) { o.MaxWait = time.Minute },
			errIs:          isRateLimit, errSays: "secondary rate limit (graphql): the required wait of 1m30s exceeds"},
		{name: "secondary limit on REST", fault: ghsim.Fault{Kind: ghsim.FaultSecondaryLimit, RetryAfter: 45 * time.Second, Match: onReactions},
			sleeps: []time.Duration{45 * time.Second}, says: "secondary rate limit; waiting 45s",
			errIs: isGiveUp, errSays: "gave up after 4 attempts: rate limited (HTTP 403)"},
		{name: "primary limit on REST", fault: ghsim.Fault{Kind: ghsim.FaultPrimaryLimit, Match: onReactions},
			opts: patient, sleeps: []time.Duration{hourReset}, says: "GitHub core rate limit reached; waiting 1h0m1s",
			errIs: isRateLimit, errSays: "primary rate limit (core): the required wait of 1h0m1s exceeds"},
		{name: "primary limit on GraphQL", fault: ghsim.Fault{Kind: ghsim.FaultPrimaryLimit, Status: 429, Match: onGraphQL},
			opts: patient, sleeps: []time.Duration{hourReset}, says: "GitHub graphql rate limit reached",
			errIs: isRateLimit, errSays: "primary rate limit (graphql)"},
		{name: "GraphQL page fails mid-pagination", fault: ghsim.Fault{Kind: ghsim.FaultGraphQLPage, Connection: "reviewThreads", Page: 2},
			sleeps: []time.Duration{time.Second}, says: "GitHub failed to answer a query",
			errIs: isGiveUp, errSays: "Something went wrong while executing your query"},
	}
}

// observeWithFault seeds a second PR whose threads need two pages (so that
// a page fault has a page 2 to hit) and observes it.
func observeWithFault(t *testing.T, e *env, f ghsim.Fault) (*inspect.Result, *ghsim.PR, error) {
	t.Helper()
	pr := seedShape(t, e.sim, e.clock.Now(), shape{threads: 150, comments: 300, issue: 3})
	e.sim.InjectFault(f)
	r, err := inspect.Observe(context.Background(), e.client, bigRepo, bigNumber)
	return r, pr, err
}

func TestFaultThatClearsIsRetried(t *testing.T) {
	for _, fc := range faultCases() {
		t.Run(fc.name, func(t *testing.T) {
			var tweak []func(*ghclient.Options)
			if fc.opts != nil {
				tweak = append(tweak, fc.opts)
			}
			e := newEnv(t, tweak...)
			fc.fault.Times = 1
			r, pr, err := observeWithFault(t, e, fc.fault)
			if err != nil {
				t.Fatalf("a fault that cleared ended in an error: %v", err)
			}
			checkComplete(t, pr, r.Obs)
			if r.Verdict.Classification == "" {
				t.Errorf("no classification: %+v", r.Verdict)
			}
			if got := e.sleeps(); !equalDurations(got, fc.sleeps) {
				t.Errorf("slept %v, want %v", got, fc.sleeps)
			}
			if fc.says != "" && !anyContains(e.waitReasons(), fc.says) {
				t.Errorf("no OnWait reason says %q: %q", fc.says, e.waitReasons())
			}
			if st := e.sim.Stats(); st.Faults != 1 || e.sim.PendingFaults() != 0 {
				t.Errorf("fault fired %d times, %d pending", st.Faults, e.sim.PendingFaults())
			}
		})
	}
}

func TestFaultThatPersistsIsAClearErrorAndNoClassification(t *testing.T) {
	for _, fc := range faultCases() {
		t.Run(fc.name, func(t *testing.T) {
			var tweak []func(*ghclient.Options)
			if fc.persistentOpts != nil {
				tweak = append(tweak, fc.persistentOpts)
			}
			e := newEnv(t, tweak...)
			fc.fault.Times = -1
			r, _, err := observeWithFault(t, e, fc.fault)
			if r != nil {
				t.Fatalf("a failed observation was classified: %+v", r.Verdict)
			}
			if err == nil || !fc.errIs(err) {
				t.Fatalf("error %T %v, want the documented kind", err, err)
			}
			if !strings.Contains(err.Error(), fc.errSays) {
				t.Errorf("error %q does not say %q", err, fc.errSays)
			}
			t.Logf("error: %v", err)
			if strings.Contains(err.Error(), token) {
				t.Error("the token leaked into the error")
			}
		})
	}
}

// TestExhaustedGraphQLBudgetWaitsForReset: GitHub answers a query with no
// points left as a 200 carrying RATE_LIMITED; the client waits for the
// window's reset, says so, and the retry succeeds.
func TestExhaustedGraphQLBudgetWaitsForReset(t *testing.T) {
	e := newEnv(t, patient)
	e.sim.SetRateRemaining(ghsim.ResourceGraphQL, 0)
	reset := e.sim.RateLimit(ghsim.ResourceGraphQL).Reset
	r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Classification != "findings" {
		t.Errorf("verdict %+v", r.Verdict)
	}
	if got, want := e.sleeps(), []time.Duration{reset.Sub(start) + time.Second}; !equalDurations(got, want) {
		t.Errorf("slept %v, want %v", got, want)
	}
	if !anyContains(e.waitReasons(), "GitHub graphql rate limit reached; waiting 1h0m1s") {
		t.Errorf("wait not announced: %q", e.waitReasons())
	}
	if st := e.sim.Stats(); st.RateLimited != 1 {
		t.Errorf("refused %d times, want once", st.RateLimited)
	}

	// Without the patience for an hour, the same state is a clear error.
	e2 := newEnv(t)
	e2.sim.SetRateRemaining(ghsim.ResourceGraphQL, 0)
	r, err = inspect.Observe(context.Background(), e2.client, demoRepo, ghsim.DemoPR)
	var rl *ghclient.RateLimitError
	if r != nil || !errors.As(err, &rl) || rl.Resource != "graphql" || rl.Secondary {
		t.Fatalf("got %v, %v; want a primary graphql RateLimitError and no result", r, err)
	}
}

// TestSpentBudgetHoldsTheNextRequest: when an answer says the budget is
// spent, the next request waits for the reset instead of being refused.
func TestSpentBudgetHoldsTheNextRequest(t *testing.T) {
	e := newEnv(t, patient)
	e.sim.SetRateRemaining(ghsim.ResourceGraphQL, 1) // exactly one observation left
	reset := e.sim.RateLimit(ghsim.ResourceGraphQL).Reset
	if _, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR); err != nil {
		t.Fatal(err)
	}
	if len(e.sleeps()) != 0 {
		t.Fatalf("slept before the budget was spent: %v", e.sleeps())
	}
	if _, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR); err != nil {
		t.Fatal(err)
	}
	if got, want := e.sleeps(), []time.Duration{reset.Sub(start) + time.Second}; !equalDurations(got, want) {
		t.Errorf("slept %v, want %v", got, want)
	}
	if !anyContains(e.waitReasons(), "GitHub graphql rate limit exhausted until") {
		t.Errorf("wait not announced: %q", e.waitReasons())
	}
	if st := e.sim.Stats(); st.RateLimited != 0 {
		t.Errorf("the client sent a request GitHub had to refuse (%d)", st.RateLimited)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func anyContains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
