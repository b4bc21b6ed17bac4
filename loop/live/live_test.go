package live_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/live"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/statestore"
)

// world is a testbed whose initial plan was executed to an ACTIVE
// automation (the loop/wakeup tests' setup).
type world struct {
	bed   *testbed.Bed
	clock *ghsim.ManualClock
	deps  wakeup.Deps
	key   string
}

func fullProbe(context.Context) sandbox.Capabilities {
	return sandbox.Capabilities{NoNetwork: true, WritesConfined: true, MinimalEnv: true}
}

func newWorld(t *testing.T, scenarios ...ghsim.Scenario) *world {
	t.Helper()
	ctx := context.Background()
	clock := ghsim.NewManualClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	b, err := testbed.New(ctx, testbed.Options{Dir: t.TempDir(), Clock: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	b.Sim.QueueCodexScenarios(scenarios...)
	var id [16]byte
	_, _ = rand.Read(id[:])
	runID, stateDir := hex.EncodeToString(id[:]), t.TempDir()
	gh, err := ghclient.New(ghclient.Options{Host: "github.com", Token: testbed.APIToken, BaseTransport: b.Sim.Transport(), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := automations.Open(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	in := b.Inputs("Add a retry budget", "Retries 502 and 503 within a per-client budget.")
	in.Mode = policy.ModeApprovalGated
	d := b.Deps()
	d.Probe = fullProbe
	p, err := planner.Build(ctx, d, in, runID)
	if err != nil {
		t.Fatal(err)
	}
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: b.Viewer.Login}
	if _, err := initial.RecordApproval(ctx, stateDir, runID, a, in); err != nil {
		t.Fatal(err)
	}
	run, err := statestore.OpenPlan(stateDir, runID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := initial.Execute(ctx, initial.Deps{Git: b.Runner, GitHub: gh, Registry: initial.FromAutomations(reg), Probe: fullProbe, Now: clock.Now},
		initial.Job{Run: run, Approval: a, Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	return &world{bed: b, clock: clock, key: res.AutomationKey,
		deps: wakeup.Deps{Root: stateDir, GitHub: gh, Registry: reg, Git: b.Runner, Now: clock.Now, Holder: "test:1"}}
}

func TestLoadWakeupAndFindings(t *testing.T) {
	w := newWorld(t, ghsim.Scenario{Kind: ghsim.Findings})
	src := &live.Source{Deps: w.deps, Key: w.key}
	ctx := context.Background()

	w.bed.Sim.ResetStats()
	l, err := src.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st := w.bed.Sim.Stats(); st.REST != 0 || st.GraphQL != 0 {
		t.Fatalf("Load made GitHub requests: %+v", st)
	}
	if l.Key != w.key || l.Automation.Status != "ACTIVE" || l.NextWakeup.IsZero() || !strings.Contains(l.Err, "first wakeup") {
		t.Fatalf("before the first wakeup: %+v", l)
	}

	l, err = src.Wakeup(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Repository != testbed.Repository || l.Number == 0 || l.Title == "" || l.Request == nil || l.Request.CommentID == 0 || l.Mode != policy.ModeApprovalGated {
		t.Fatalf("after a wakeup: %+v", l)
	}
	if len(l.History) != 1 || l.History[0].Action != evaluate.ActionWait || l.Next.Action != evaluate.ActionWait || len(l.Gates) != 4 {
		t.Fatalf("history %+v next %+v gates %+v", l.History, l.Next, l.Gates)
	}
	if want := l.History[0].Time.Add(2 * time.Minute); !l.NextWakeup.Equal(want) {
		t.Errorf("next wakeup %v, want the rrule's %v", l.NextWakeup, want)
	}

	w.clock.Advance(5 * time.Minute)
	w.bed.Sim.Settle()
	if l, err = src.Wakeup(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var actionable []status.Thread
	for _, th := range l.Threads {
		if th.Kind == "actionable" {
			actionable = append(actionable, th)
		}
	}
	if len(actionable) == 0 {
		t.Fatalf("no actionable thread after Codex's findings: %+v (next %+v)", l.Threads, l.Next)
	}
	th := actionable[0]
	if th.Body == "" || th.Path == "" || th.Title == "" || !strings.Contains(th.URL, "#discussion_r") {
		t.Errorf("thread %+v", th)
	}
	if l.Phase() != status.PhaseAwaitingApproval || l.Next.PlanHash == "" || l.Next.PlanKind != "remediation" {
		t.Errorf("after findings: phase %s next %+v", l.Phase(), l.Next)
	}
}

func TestWakeupWhileTheLockIsHeld(t *testing.T) {
	w := newWorld(t, ghsim.Scenario{Kind: ghsim.Silent})
	run, err := wakeup.OpenRun(w.deps.Root, w.key)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := run.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src := &live.Source{Deps: w.deps, Key: w.key}
	_, err = src.Wakeup(context.Background(), nil)
	unlock()
	if !errors.Is(err, status.ErrLocked) {
		t.Fatalf("err %v, want ErrLocked", err)
	}
	l, err := src.Load(context.Background())
	if err != nil || len(l.History) != 0 {
		t.Fatalf("a busy wakeup must record nothing: %v %+v", err, l.History)
	}
}

func TestList(t *testing.T) {
	w := newWorld(t, ghsim.Scenario{Kind: ghsim.Silent})
	ls, err := live.List(context.Background(), w.deps)
	if err != nil || len(ls) != 1 || ls[0].Key != w.key {
		t.Fatalf("List: %v %+v", err, ls)
	}
}

func TestInterval(t *testing.T) {
	for rule, want := range map[string]time.Duration{
		policy.HeartbeatRRule:       2 * time.Minute,
		"FREQ=HOURLY":               time.Hour,
		"FREQ=SECONDLY;INTERVAL=15": 15 * time.Second,
		"FREQ=WEEKLY":               2 * time.Minute,
		"":                          2 * time.Minute,
	} {
		if got := live.Interval(rule); got != want {
			t.Errorf("Interval(%q) = %v, want %v", rule, got, want)
		}
	}
}

// While a loop only waits, the console's cycle — reads of the state
// directory every few seconds and a wakeup on the rrule — costs no charged
// REST request and at most one GraphQL point per wakeup.
func TestIdleConsoleCost(t *testing.T) {
	w := newWorld(t, ghsim.Scenario{Kind: ghsim.Silent})
	src := &live.Source{Deps: w.deps, Key: w.key}
	ctx := context.Background()
	if _, err := src.Wakeup(ctx, nil); err != nil { // the round's first wakeup learns the request's node id
		t.Fatal(err)
	}
	w.bed.Sim.ResetStats()
	for range 10 {
		if _, err := src.Load(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if st := w.bed.Sim.Stats(); st.REST != 0 || st.GraphQL != 0 {
		t.Fatalf("reads cost %+v", st)
	}
	for i := range 3 {
		w.clock.Advance(2 * time.Minute)
		l, err := src.Wakeup(ctx, nil)
		if err != nil || l.Next.Action != evaluate.ActionWait {
			t.Fatalf("idle wakeup %d: %v %s", i, err, l.Phase())
		}
	}
	st := w.bed.Sim.Stats()
	if st.REST-st.REST304 != 0 || st.GraphQL != 3 || st.GraphQLPoints > 3 {
		t.Fatalf("3 idle wakeups cost %d charged REST, %d GraphQL queries, %d points", st.REST-st.REST304, st.GraphQL, st.GraphQLPoints)
	}
}
