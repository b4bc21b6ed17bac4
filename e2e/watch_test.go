package e2e

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
	"github.com/prloop/gh-prloop/tui/report"
)

// TestWatchFollowsCodexThroughTheSimulator drives `report --watch` (plain
// mode, as on a pipe) through a review round in the simulator. Each refresh
// first moves the simulated world one step, so the test is deterministic
// whatever the ticker does:
//
//	refresh 1  the seeded findings round
//	refresh 2  findings resolved, "@codex review" posted, Codex has put 👀
//	refresh 3  Codex answered: zero findings
//	refresh 4  nothing changed: must cost no charged REST request
//	refresh 5  the user quits (context cancelled)
func TestWatchFollowsCodexThroughTheSimulator(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var results []*inspect.Result
	var statsBefore, statsAfter ghsim.Stats
	step := 0
	fetch := func(ctx context.Context) (report.View, error) {
		step++
		switch step {
		case 2:
			for _, th := range e.pr.Threads() {
				if th.Comments[0].Author.ID == ghsim.CodexBotID {
					e.pr.ResolveThread(th.NodeID, true)
				}
			}
			e.clock.Advance(time.Hour)
			e.pr.PostComment(ghsim.Comment{Author: e.sim.Viewer(), Body: "@codex review"})
			if e.sim.AdvanceCodex() != 1 {
				t.Error("Codex did not start")
			}
		case 3:
			e.clock.Advance(2 * time.Minute)
			e.sim.Settle()
		case 4:
			statsBefore = e.sim.Stats()
		case 5:
			cancel()
			return report.View{}, ctx.Err()
		}
		r, err := inspect.Observe(ctx, e.client, demoRepo, ghsim.DemoPR)
		if step == 4 {
			statsAfter = e.sim.Stats()
		}
		if err != nil {
			return report.View{}, err
		}
		results = append(results, r)
		return r.View(), nil
	}

	var out bytes.Buffer
	err := report.Run(ctx, report.Options{
		Fetch: fetch, Watch: true, Interval: time.Millisecond, Plain: true, Out: &out,
		Getenv: func(string) string { return "" },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("watch ended with %v, want the cancellation", err)
	}
	if len(results) != 4 {
		t.Fatalf("%d refreshes observed, want 4", len(results))
	}

	wantClass := []string{"findings", "awaiting-response", "zero-findings", "zero-findings"}
	wantReviewing := []bool{false, true, false, false}
	for i, r := range results {
		if r.Verdict.Classification != wantClass[i] || r.Classified.Live.Reviewing != wantReviewing[i] {
			t.Errorf("refresh %d: %s reviewing=%v, want %s reviewing=%v", i+1,
				r.Verdict.Classification, r.Classified.Live.Reviewing, wantClass[i], wantReviewing[i])
		}
	}

	// What the user saw: each printed report, in order.
	reports := strings.Split(out.String(), "\n\n")
	if len(reports) < 3 {
		t.Fatalf("%d reports printed:\n%s", len(reports), out.String())
	}
	if strings.Contains(reports[0], "codex: reviewing") || !strings.Contains(reports[1], "codex: reviewing") ||
		strings.Contains(reports[2], "codex: reviewing") {
		t.Errorf("\"codex: reviewing\" not shown exactly while Codex reviewed:\n%s", out.String())
	}
	for i, want := range []string{"actionable (3):", "AWAITING RESPONSE", "zero-findings=yes current=yes"} {
		if !strings.Contains(reports[i], want) {
			t.Errorf("report %d lacks %q:\n%s", i+1, want, reports[i])
		}
	}

	// The unchanged refresh: GraphQL cannot be conditional (one point), the
	// REST read of the request's reactions is a free 304.
	unchanged := results[3].Cost
	if unchanged.RESTCharged != 0 || unchanged.NotModified != 1 || unchanged.GraphQLPoints > maxUnchangedPoints {
		t.Errorf("unchanged refresh cost %+v", unchanged)
	}
	if n := charged(statsAfter) - charged(statsBefore); n != 0 {
		t.Errorf("the simulator charged %d REST requests for an unchanged refresh", n)
	}
}
