package procs

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// newLoopWorld is the world `gh-prloop sim --scenario
// findings,clean-by-reaction --time-scale 30 --bot-delay 20s --check-delay
// 20s` serves: findings on the first review request, 👍 on the second, a CI
// check that passes 20 simulated seconds after each push (before the bot's
// three 20 s steps end, so every verdict is read with settled gates; see
// the report about gates that move under a stored finalization plan),
// simulated time 30× the wall clock.
func newLoopWorld(t *testing.T) *world {
	t.Helper()
	gates := standalone.DefaultGates()
	gates.CheckDelay = 20 * time.Second
	w := worldOn(t, standalone.Options{
		Dir: t.TempDir(), TimeScale: 30, BotDelay: 20 * time.Second, Gates: &gates,
		Scenarios: []ghsim.ScenarioKind{ghsim.Findings, ghsim.CleanByReaction},
	}, "")
	return w
}

// setFixer records the run's fixer as `start --fixer` does: the real
// binary's scripted fixer (`gh-prloop sim fix`), copied into the
// checkpoint by the loop's first wakeup.
func (w *world) setFixer(runID string) {
	w.t.Helper()
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	unlock, err := run.Lock(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	defer unlock()
	if err := wakeup.WriteFixer(run, []string{binary, "sim", "fix"}); err != nil {
		w.t.Fatal(err)
	}
}

// automations lists the registry (what `automations list` shows).
func (w *world) automations() []automations.Record {
	w.t.Helper()
	reg, err := automations.Open(w.state)
	if err != nil {
		w.t.Fatal(err)
	}
	all, err := reg.List(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return all
}

// wakeups runs `wakeup --all --json` until no automation is left ACTIVE
// (fullDrive) and returns every outcome. An exit 8 (a plan awaiting
// approval) hands its hash to approveHash, which may approve it; nil fails
// the test.
func (w *world) wakeups(approveHash func(string)) []wakeup.Outcome {
	var pending func(wakeup.Outcome)
	if approveHash != nil {
		pending = func(o wakeup.Outcome) {
			if o.PlanHash == "" {
				w.t.Fatalf("a wakeup exited 8 without a plan hash: %+v", o)
			}
			approveHash(o.PlanHash)
		}
	}
	var outs []wakeup.Outcome
	for _, s := range w.fullDrive(pending) {
		outs = append(outs, s.out)
	}
	return outs
}

// executedOnceInOrder: each execute action ran exactly once, in the loop's order.
func executedOnceInOrder(t *testing.T, outs []wakeup.Outcome) {
	t.Helper()
	seq := executed(outs)
	want := []string{"execute-remediation", "execute-finalization", "finish-finalization"}
	if !containsInOrder(seq, want) {
		t.Fatalf("executed %v, want %v in order; outcomes %+v", seq, want, outs)
	}
	for _, a := range want {
		n := 0
		for _, s := range seq {
			if s == a {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s executed %d times: %v", a, n, seq)
		}
	}
}

// executed is the sequence of actions a wakeup carried out (done set),
// in order.
func executed(outs []wakeup.Outcome) []string {
	var seq []string
	for _, o := range outs {
		if o.Done != "" && o.Action != "wait" {
			seq = append(seq, o.Action)
		}
	}
	return seq
}

func loopSimState(t *testing.T, w *world) ghsim.State {
	t.Helper()
	resp, err := http.Get(w.sim.Info().APIURL + ghsim.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st ghsim.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// checkLoopEnd: from /_sim/state, one commit push per round (the initial
// commit, the fix), one reply per Codex thread, every thread resolved, one
// review request per round (round 0 and round 1), the PR open; and the
// automation deleted from the registry.
func (w *world) checkLoopEnd(runID string) {
	t := w.t
	t.Helper()
	st := loopSimState(t, w)
	head := ""
	if len(st.Pulls) != 1 {
		t.Fatalf("pulls: %+v", st.Pulls)
	}
	head = st.Pulls[0].Head
	pushes := 0
	for _, p := range st.Pushes[w.seedPushes:] { // the seeding is not the product's
		if p.Ref == "refs/heads/"+head || p.Ref == head {
			pushes++
		}
	}
	if pushes != 2 {
		t.Errorf("%d pushes to %s, want 2 (round 0 and the fix): %+v", pushes, head, st.Pushes)
	}
	if len(st.Threads) == 0 {
		t.Fatal("Codex opened no thread: the findings round did not happen")
	}
	for _, th := range st.Threads {
		if !th.Resolved {
			t.Errorf("thread %s (%s:%d) not resolved", th.ID, th.Path, th.Line)
		}
		mine := 0
		for _, r := range th.Replies {
			if r.Author != ghsim.CodexBotLogin {
				mine++
			}
		}
		if mine != 1 {
			t.Errorf("thread %s has %d replies of the author, want 1: %+v", th.ID, mine, th.Replies)
		}
	}
	requests := map[string]int{}
	for _, c := range st.IssueComments {
		if c.Author != ghsim.CodexBotLogin && strings.Contains(c.Body, "@codex review") && strings.Contains(c.Body, runID) {
			requests[c.Body]++
		}
	}
	if len(requests) != 2 {
		t.Errorf("%d distinct review requests, want 2 (round 0 and round 1): %v", len(requests), requests)
	}
	for b, n := range requests {
		if n != 1 {
			t.Errorf("request posted %d times: %q", n, b)
		}
	}
	if left := w.automations(); len(left) != 0 {
		t.Errorf("automations left after finish-finalization: %+v", left)
	}
}

// containsInOrder reports whether want occurs in seq as a subsequence.
func containsInOrder(seq, want []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}

// The whole loop with real processes: start --mode autonomous, the
// scripted fixer, wakeup --all --json until nothing is ACTIVE.
func TestAutonomousLoopEndToEnd(t *testing.T) {
	w := newLoopWorld(t)
	runID := startResult(t, w.gh(nil, "start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json",
		"--fixer", "'"+binary+"' sim fix")).RunID
	outs := w.wakeups(nil)
	t.Logf("executed: %v", executed(outs))
	executedOnceInOrder(t, outs)
	w.checkLoopEnd(runID)
}

// The approval-gated loop with real processes: plan approved (recorded
// as the console does) and apply, then every loop plan stops the wakeup
// with exit 8 and its hash, `approve --hash H` records it, and the next
// wakeup executes it.
func TestApprovalGatedLoopEndToEnd(t *testing.T) {
	w := newLoopWorld(t)
	runID := w.approve()
	if r := w.gh(nil, "apply", runID); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.setFixer(runID)
	var hashes []string
	outs := w.wakeups(func(hash string) {
		hashes = append(hashes, hash)
		wrong := "0" + hash[1:] // a hash that differs in its first character
		if hash[0] == '0' {
			wrong = "1" + hash[1:]
		}
		if r := w.gh(nil, "approve", "--hash", wrong); r.code != 1 {
			t.Fatalf("approve with a wrong hash: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if r := w.gh(nil, "approve", "--hash", hash); r.code != 0 {
			t.Fatalf("approve --hash %s: exit %d\n%s\n%s", hash, r.code, r.stdout, r.stderr)
		}
	})
	seq := executed(outs)
	t.Logf("executed: %v; approved %v", seq, hashes)
	want := []string{"execute-remediation", "execute-finalization", "finish-finalization"}
	if !containsInOrder(seq, want) {
		t.Fatalf("executed %v, want %v in order; outcomes %+v", seq, want, outs)
	}
	// Nothing runs unapproved: every executed remediation/finalization
	// follows an exit-8 wakeup that showed its plan.
	if len(hashes) < 2 {
		t.Fatalf("%d plans awaited approval, want one remediation and one finalization: %+v", len(hashes), outs)
	}
	w.checkLoopEnd(runID)
}
