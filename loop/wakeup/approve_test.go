package wakeup_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/state"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// editCheckpoint changes the loop's checkpoint under the run lock, as
// another process would have left it.
func (w *world) editCheckpoint(fn func(c *checkpoint.Checkpoint)) {
	w.t.Helper()
	run := w.run()
	unlock, err := run.Lock(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	defer unlock()
	c, err := checkpoint.Read(run)
	if err != nil {
		w.t.Fatal(err)
	}
	fn(c)
	if err := checkpoint.Write(run, c); err != nil {
		w.t.Fatal(err)
	}
}

// Approval by the exact hash: a wrong hash records nothing; the right one
// makes the next wakeup execute the approved plan (reason approved).
func TestApproveByHashThenExecute(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	o := w.wake()
	if o.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("outcome %+v", o)
	}
	d := w.deps()
	wrong := strings.Repeat("0", 64)
	if _, err := wakeup.Approve(t.Context(), d, w.key, wrong, w.bed.Viewer.ID); !errors.Is(err, wakeup.ErrHashMismatch) {
		t.Fatalf("approving a wrong hash: %v", err)
	}
	if again := w.wake(); again.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("after a wrong hash: %+v", again)
	}
	p, err := wakeup.Approve(t.Context(), d, w.key, o.PlanHash, w.bed.Viewer.ID)
	if err != nil || !p.Approved || p.Kind != "remediation" {
		t.Fatalf("approve: %v %+v", err, p)
	}
	ran := 0
	d.Executors = map[string]wakeup.Executor{evaluate.ActionExecuteRemediation: func(ctx context.Context, job wakeup.Job) (string, error) {
		ran++
		if job.PlanHash != o.PlanHash {
			return "", fmt.Errorf("executing %s, approved %s", job.PlanHash, o.PlanHash)
		}
		return "fixed", nil
	}}
	x := wakeup.One(t.Context(), d, w.key)
	if x.Action != evaluate.ActionExecuteRemediation || x.Reason != evaluate.ReasonApproved || ran != 1 || x.Error != "" {
		t.Fatalf("after approval: %+v (executor ran %d times)", x, ran)
	}
}

// Adding a path to the remediation scope rebuilds the plan: a new hash
// whose paths contain it, and the old approval is gone.
func TestAddPathRebuildsThePlan(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	o := w.wake()
	d := w.deps()
	if _, err := wakeup.Approve(t.Context(), d, w.key, o.PlanHash, w.bed.Viewer.ID); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "/etc/passwd", "../x", "a/../b", "a\\b"} {
		if err := wakeup.AddPath(t.Context(), d, w.key, bad); err == nil {
			t.Fatalf("AddPath(%q) accepted", bad)
		}
	}
	if err := wakeup.AddPath(t.Context(), d, w.key, "README.md"); err != nil {
		t.Fatal(err)
	}
	n := w.wake()
	if n.Action != evaluate.ActionAwaitApproval || n.PlanHash == o.PlanHash {
		t.Fatalf("after adding a path: %+v (old hash %s)", n, o.PlanHash)
	}
	p, err := wakeup.PendingPlan(t.Context(), w.state, w.key)
	if err != nil {
		t.Fatal(err)
	}
	if p.Approved || !slices.Contains(p.Checkpoint.RemediationManifest.Paths, "README.md") {
		t.Fatalf("rebuilt plan: approved %v paths %v", p.Approved, p.Checkpoint.RemediationManifest.Paths)
	}
}

// A live claim held by another holder → wait; an expired one → halt
// stale-claim with the automation paused.
func TestClaims(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Silent})
	w.wake() // the first wakeup writes the checkpoint
	now := w.clock.Now()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) {
		c.Claim = &schema.Claim{ClaimedAt: schema.FormatTime(now), ExpiresAt: schema.FormatTime(now.Add(policy.ClaimTTLSecs * time.Second)),
			Holder: "other-host:42", PlanHash: strings.Repeat("a", 64), RequestKey: c.RequestKey()}
	})
	if o := w.wake(); o.Action != evaluate.ActionWait || o.Reason != evaluate.ReasonClaimed {
		t.Fatalf("live claim: %+v", o)
	}
	w.clock.Advance((policy.ClaimTTLSecs + 1) * time.Second)
	o := w.wake()
	if o.Action != evaluate.ActionHalt || o.Reason != evaluate.ReasonStaleClaim || o.Exit != wakeup.ExitHalt {
		t.Fatalf("stale claim: %+v", o)
	}
	if a := w.automation(); a.Status != "PAUSED" || !strings.Contains(a.Reason, evaluate.ReasonStaleClaim) {
		t.Fatalf("automation %s %q", a.Status, a.Reason)
	}
}

// Findings after the last allowed round halt with fix-round-limit.
func TestFixRoundLimitHalts(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.wake() // the first wakeup writes the checkpoint
	w.codexAnswers()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) {
		c.FixRounds = policy.MaxFixRounds
		c.CompletedRequestKeys = nil
		for i := range policy.MaxFixRounds {
			c.CompletedRequestKeys = append(c.CompletedRequestKeys, policy.RequestKey(int64(900+i), strings.Repeat("c", 40)))
		}
	})
	o := w.wake()
	if o.Action != evaluate.ActionHalt || o.Reason != evaluate.ReasonFixRoundLimit {
		t.Fatalf("outcome %+v", o)
	}
	if a := w.automation(); a.Status != "PAUSED" {
		t.Fatalf("automation %s", a.Status)
	}
}

// Two `wakeup --all` at once: on each loop exactly one acts, the other
// reports it busy; while the run lock is held elsewhere a wakeup does
// nothing at all.
func TestConcurrentWakeupsOneActs(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.codexAnswers()
	run := w.run()
	unlock, err := run.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if o := w.wake(); o.Action != wakeup.ActionBusy {
		t.Fatalf("wakeup while the lock is held: %+v", o)
	}
	unlock()
	if h, _ := wakeup.History(w.run()); len(h) != 0 {
		t.Fatalf("a busy wakeup wrote history: %+v", h)
	}
	var calls int
	var mu sync.Mutex
	d := w.deps()
	d.Executors = map[string]wakeup.Executor{}
	// Slow the GitHub side so that the two overlap.
	gate := make(chan struct{})
	d.GitHub = gatedGitHub{GitHub: w.gh, gate: gate}
	var outs [2][]wakeup.Outcome
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := wakeup.All(context.Background(), d)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			outs[i] = o
			calls++
			first := calls == 1
			mu.Unlock()
			if first {
				close(gate) // the loser of the lock returned: let the winner observe
			}
		}()
	}
	wg.Wait()
	acted, busy := 0, 0
	for _, os := range outs {
		for _, o := range os {
			switch o.Action {
			case wakeup.ActionBusy:
				busy++
			case evaluate.ActionAwaitApproval:
				acted++
			default:
				t.Fatalf("outcome %+v", o)
			}
		}
	}
	if acted != 1 || busy != 1 {
		t.Fatalf("%d acted, %d busy; want 1 and 1", acted, busy)
	}
	p, err := wakeup.PendingPlan(t.Context(), w.state, w.key)
	if err != nil || p.Kind != "remediation" {
		t.Fatalf("pending plan: %v", err)
	}
}

// gatedGitHub holds every observation until gate is closed.
type gatedGitHub struct {
	state.GitHub
	gate chan struct{}
}

func (g gatedGitHub) ObservePRWithRequest(ctx context.Context, repo ghclient.Repo, number int64, node string) (*observe.PR, bool, ghclient.Cost, error) {
	<-g.gate
	return g.GitHub.ObservePRWithRequest(ctx, repo, number, node)
}

// Recheck returns the stored hash while the plan holds, and refuses once
// the world moved (a foreign push).
func TestRecheck(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.ZeroFindings})
	w.codexAnswers()
	o := w.wake()
	d := w.deps()
	if h, err := wakeup.Recheck(t.Context(), d, w.key); err != nil || h != o.PlanHash {
		t.Fatalf("recheck: %q %v, want %s", h, err, o.PlanHash)
	}
	w.pr.Push(strings.Repeat("ab", 20))
	if h, err := wakeup.Recheck(t.Context(), d, w.key); err == nil || h != "" || !strings.Contains(err.Error(), evaluate.ReasonHeadDrift) {
		t.Fatalf("recheck after a foreign push: %q %v", h, err)
	}
}
