package wakeup_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// The first wakeup after bootstrap waits for Codex and records itself; an
// idle wakeup after it (nothing changed on GitHub) costs no git network
// operation, no charged REST request and at most one GraphQL point.
func TestIdleWakeupWaitsAndCostsAtMostOnePoint(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Silent})
	o := w.wake()
	if o.Action != evaluate.ActionWait || o.Reason != evaluate.ReasonAwaitingResponse || o.Exit != wakeup.ExitOK {
		t.Fatalf("first wakeup: %+v", o)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if c.RequestNodeID == "" || c.FixRounds != 0 || c.AutomationKey != w.key {
		t.Fatalf("checkpoint after the first wakeup: %+v", c)
	}
	w.bed.Sim.ResetStats()
	git0 := w.bed.GitServer.Requests()
	o = w.wake()
	if o.Action != evaluate.ActionWait {
		t.Fatalf("idle wakeup: %+v", o)
	}
	st := w.bed.Sim.Stats()
	if st.REST-st.REST304 != 0 || st.GraphQLPoints > 1 || st.GraphQL != 1 {
		t.Fatalf("idle wakeup cost: %d charged REST, %d GraphQL queries, %d points (routes %v)", st.REST-st.REST304, st.GraphQL, st.GraphQLPoints, st.ByRoute)
	}
	if n := w.bed.GitServer.Requests() - git0; n != 0 {
		t.Fatalf("idle wakeup made %d git network requests", n)
	}
	if o.Points != st.GraphQLPoints || o.REST != 0 {
		t.Fatalf("the outcome reports %d points, %d REST; the simulator counted %d, 0", o.Points, o.REST, st.GraphQLPoints)
	}
	h, err := wakeup.History(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[1].Action != evaluate.ActionWait || h[1].GraphQLPoints != st.GraphQLPoints || h[0].Time == "" {
		t.Fatalf("history %+v", h)
	}
	if a := w.automation(); a.Status != "ACTIVE" {
		t.Fatalf("a wait changed the automation: %+v", a)
	}
}

// Each halt pauses the automation with the reason and exits 1.
func TestHaltsPauseTheAutomation(t *testing.T) {
	cases := []struct {
		name, reason string
		do           func(w *world)
	}{
		{"pr closed", evaluate.ReasonPRClosed, func(w *world) { w.pr.Update(func(p *ghsim.PullRequest) { p.State = "closed" }) }},
		{"pr merged", evaluate.ReasonPRMerged, func(w *world) {
			w.pr.Update(func(p *ghsim.PullRequest) { p.State, p.Merged = "closed", true })
		}},
		{"foreign push", evaluate.ReasonHeadDrift, func(w *world) { w.pr.Push(strings.Repeat("ab", 20)) }},
		{"request timeout", evaluate.ReasonRequestTimeout, func(w *world) {
			w.codexAnswers()
			w.clock.Advance(policy.RequestTimeoutSecs * 1e9)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Silent})
			tc.do(w)
			o := w.wake()
			if o.Action != evaluate.ActionHalt || o.Reason != tc.reason || o.Exit != wakeup.ExitHalt || len(o.Actions) != 1 || o.Actions[0] != evaluate.ActionHalt {
				t.Fatalf("outcome %+v, want halt/%s exit 1", o, tc.reason)
			}
			a := w.automation()
			if a.Status != "PAUSED" || !strings.Contains(a.Reason, tc.reason) {
				t.Fatalf("automation after the halt: %s %q", a.Status, a.Reason)
			}
			// A paused loop is not woken by --all.
			all, err := wakeup.All(t.Context(), w.deps())
			if err != nil || len(all) != 0 {
				t.Fatalf("wakeup --all after the halt: %v %+v", err, all)
			}
		})
	}
}

// A wakeup while a fix round's plan awaits its hash observes the checkout
// for the plan's execution boundary, locally: no git network operation
// (it made six, an ls-remote per observation), no charged REST request,
// one GraphQL point.
func TestAwaitingApprovalWakeupMakesNoGitRequest(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	if o := w.wake(); o.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("outcome %+v", o)
	}
	w.bed.Sim.ResetStats()
	git0 := w.bed.GitServer.Requests()
	o := w.wake()
	if o.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("second wakeup: %+v", o)
	}
	st := w.bed.Sim.Stats()
	if n := w.bed.GitServer.Requests() - git0; n != 0 {
		t.Errorf("a wakeup awaiting approval made %d git network requests", n)
	}
	if st.REST-st.REST304 != 0 || st.GraphQL != 1 || st.GraphQLPoints > 1 {
		t.Errorf("a wakeup awaiting approval cost %d charged REST, %d GraphQL queries, %d points", st.REST-st.REST304, st.GraphQL, st.GraphQLPoints)
	}
}
