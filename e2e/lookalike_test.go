package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// A look-alike copies the Codex bot's login but not its database id. Trust
// is by id (and type), so nothing a look-alike posts may count as Codex:
// not its zero-findings comment, not its review, not its 👀.

// askAgain resolves the demo's findings (as if they were fixed), posts a
// fresh "@codex review" an hour after the seeded round, and lets whoever is
// scripted answer. With no finding left open, a zero-findings answer that
// counts makes the verdict "zero-findings".
func askAgain(t *testing.T, e *env, answer ghsim.Scenario) {
	t.Helper()
	for _, th := range e.pr.Threads() {
		if th.Comments[0].Author.ID == ghsim.CodexBotID {
			e.pr.ResolveThread(th.NodeID, true)
		}
	}
	e.sim.QueueCodexScenarios(answer)
	e.clock.Advance(time.Hour)
	e.pr.PostComment(ghsim.Comment{Author: e.sim.Viewer(), Body: "@codex review"})
	if e.sim.Settle() == 0 {
		t.Fatal("nobody answered the request")
	}
	e.clock.Advance(5 * time.Minute)
}

func TestLookalikeZeroFindingsCommentNeverCounts(t *testing.T) {
	for _, typ := range []string{ghsim.TypeBot, ghsim.TypeUser} {
		t.Run(typ, func(t *testing.T) {
			e := newEnv(t)
			fake := e.sim.AddLookalike(4242, typ)
			askAgain(t, e, ghsim.Scenario{Kind: ghsim.ZeroFindings, Actor: fake})
			r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict.Classification != "awaiting-response" {
				t.Errorf("an impostor's zero-findings comment moved the verdict: %+v", r.Verdict)
			}
			if len(r.State.Responses) != 0 {
				t.Errorf("impostor counted as a response: %+v", r.State.Responses)
			}
			if r.Classified.Live.Reviewing || len(r.Classified.Live.Reactions) != 0 {
				t.Errorf("impostor's 👀 or summary counted: %+v", r.Classified.Live)
			}
			// The impostor's items were observed, under the login it copied.
			seen := 0
			for _, c := range r.Obs.IssueComments {
				if c.Author.ID == fake.ID {
					seen++
				}
			}
			if seen == 0 {
				t.Error("the impostor's comments were not observed at all")
			}
		})
	}
}

// TestRealCodexZeroFindingsCounts is the control: the same script by the
// real bot is a zero-findings verdict, so the test above can fail.
func TestRealCodexZeroFindingsCounts(t *testing.T) {
	e := newEnv(t)
	askAgain(t, e, ghsim.Scenario{Kind: ghsim.ZeroFindings})
	r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Classification != "zero-findings" || len(r.State.Responses) == 0 || !r.State.Responses[0].ZeroFindingsSignal {
		t.Errorf("the real bot's zero-findings did not count: %+v %+v", r.Verdict, r.State.Responses)
	}
}

func TestLookalikeZeroFindingsReviewNeverCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		author func(*env) ghsim.Account
		counts bool
	}{
		{"look-alike bot", func(e *env) ghsim.Account { return e.sim.AddLookalike(4242, ghsim.TypeBot) }, false},
		{"look-alike user", func(e *env) ghsim.Account { return e.sim.AddLookalike(4343, ghsim.TypeUser) }, false},
		{"real bot", func(*env) ghsim.Account { return ghsim.CodexBot() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			// The request, answered by nobody but the review below.
			askAgain(t, e, ghsim.Scenario{Kind: ghsim.Silent, Actor: e.sim.AddLookalike(5555, ghsim.TypeUser)})
			e.pr.AddReview(ghsim.Review{
				Author: tc.author(e), State: "COMMENTED", CommitID: ghsim.DemoHeadSHA, SubmittedAt: e.clock.Now(),
				Body: fmt.Sprintf("%s Keep it up!\n\n**Reviewed commit:** `%s`", ghsim.ZeroFindingsPrefix, ghsim.DemoHeadSHA[:10]),
			})
			r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Verdict.Classification == "zero-findings"
			if got != tc.counts {
				t.Errorf("zero-findings review by %s: verdict %+v, want counted=%v", tc.name, r.Verdict, tc.counts)
			}
		})
	}
}
