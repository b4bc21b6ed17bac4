package wakeup_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/statestore"
)

// world is one testbed whose initial plan was executed to an ACTIVE
// automation: the state every wakeup starts from.
type world struct {
	t     testing.TB
	bed   *testbed.Bed
	clock *ghsim.ManualClock
	gh    *ghclient.Client // observes with the simulator's clock
	state string
	reg   *automations.Registry
	key   string
	runID string
	pr    *ghsim.PR
}

func newWorld(t testing.TB, mode string, scenarios ...ghsim.Scenario) *world {
	t.Helper()
	return newWorldWith(t, mode, nil, scenarios...)
}

// newWorldWith is newWorld with setup run on the testbed before the
// initial execution pushes (e.g. a merge-gate script).
func newWorldWith(t testing.TB, mode string, setup func(*testbed.Bed), scenarios ...ghsim.Scenario) *world {
	t.Helper()
	ctx := context.Background()
	clock := ghsim.NewManualClock(time.Now().UTC().Truncate(time.Second))
	b, err := testbed.New(ctx, testbed.Options{Dir: t.TempDir(), Clock: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	b.Sim.QueueCodexScenarios(scenarios...)
	if setup != nil {
		setup(b)
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	w := &world{t: t, bed: b, clock: clock, state: t.TempDir(), runID: hex.EncodeToString(id[:])}
	if w.gh, err = ghclient.New(ghclient.Options{Host: "github.com", Token: testbed.APIToken, BaseTransport: b.Sim.Transport(), Now: clock.Now}); err != nil {
		t.Fatal(err)
	}
	if w.reg, err = automations.Open(w.state); err != nil {
		t.Fatal(err)
	}
	in := b.Inputs("Add a retry budget", "Retries 502 and 503 within a per-client budget.")
	in.Mode = mode
	deps := b.Deps()
	deps.Probe = fullProbe
	p, err := planner.Build(ctx, deps, in, w.runID)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: b.Viewer.Login}
	if _, err := initial.RecordApproval(ctx, w.state, w.runID, a, in); err != nil {
		t.Fatal(err)
	}
	run, err := statestore.OpenPlan(w.state, w.runID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := initial.Execute(ctx, initial.Deps{Git: b.Runner, GitHub: w.gh, Registry: initial.FromAutomations(w.reg), Probe: fullProbe, Now: clock.Now},
		initial.Job{Run: run, Approval: a, Inputs: in})
	if err != nil {
		t.Fatalf("initial execution: %v", err)
	}
	w.key = res.AutomationKey
	w.pr, _ = b.Repo.PR(int(res.PRNumber))
	if w.key != policy.AutomationKey(testbed.Repository, res.PRNumber, w.runID) {
		t.Fatalf("automation key %q", w.key)
	}
	return w
}

func (w *world) deps() wakeup.Deps {
	return wakeup.Deps{Root: w.state, GitHub: w.gh, Registry: w.reg, Git: w.bed.Runner, Now: w.clock.Now, Holder: "test:1"}
}

// wake runs one wakeup of the world's loop.
func (w *world) wake() wakeup.Outcome {
	w.t.Helper()
	o := wakeup.One(context.Background(), w.deps(), w.key)
	w.t.Logf("wakeup: %s/%s exit %d done %q msg %q err %q", o.Action, o.Reason, o.Exit, o.Done, o.Message, o.Error)
	return o
}

// codexAnswers lets the simulated bot finish every step it has scripted.
func (w *world) codexAnswers() {
	w.clock.Advance(5 * time.Minute)
	w.bed.Sim.Settle()
}

func (w *world) automation() automations.Record {
	w.t.Helper()
	r, ok, err := w.reg.Get(context.Background(), w.key)
	if err != nil || !ok {
		w.t.Fatalf("automation %s: %v (found %v)", w.key, err, ok)
	}
	return r
}

func (w *world) run() *statestore.Run {
	w.t.Helper()
	r, err := wakeup.OpenRun(w.state, w.key)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// fullProbe is a sandbox with every guarantee: these plans carry no
// validation command, so nothing ever runs in it.
func fullProbe(context.Context) sandbox.Capabilities {
	return sandbox.Capabilities{NoNetwork: true, WritesConfined: true, MinimalEnv: true}
}

func claimOf(c *checkpoint.Checkpoint, holder string, now time.Time) *schema.Claim {
	return &schema.Claim{ClaimedAt: schema.FormatTime(now), ExpiresAt: schema.FormatTime(now.Add(policy.ClaimTTLSecs * time.Second)),
		Holder: holder, PlanHash: *c.RemediationPlanHash, RequestKey: c.RequestKey()}
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}
