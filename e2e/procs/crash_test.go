package procs

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// crashPoints are the kill points of ops in order, before and after each
// side effect; an operation with one side effect per thread has its
// points per thread ("<op>/<k>", k from 1) and none of its own.
func crashPoints(ops []string, perThread map[string]int) []string {
	var out []string
	for _, op := range ops {
		names := []string{op}
		if n := perThread[op]; n > 0 {
			names = names[:0]
			for k := 1; k <= n; k++ {
				names = append(names, fmt.Sprintf("%s/%d", op, k))
			}
		}
		for _, name := range names {
			out = append(out, "before:"+name, "after:"+name)
		}
	}
	return out
}

// The whole loop with real processes, each `wakeup` SIGKILLed before and
// after every side effect of the fix round (edit, validation, commit, push,
// each thread's reply, the round's request, update-automation) and of
// finalization (mark-draft-ready, each thread's resolution, the
// automation's deletion), in turn in ONE world: each process resumes what
// the previous one left (a claim of a dead holder, a reservation without a
// receipt), and plain wakeups finish the loop. The end state holds exactly
// one of every side effect and a receipt for every journal entry.
func TestWakeupKilledAtEverySideEffect(t *testing.T) {
	w := newLoopWorld(t)
	key, runID := w.crashStart()
	threads := len(testbed.RoundFindings(0))
	if threads < 2 {
		t.Fatalf("the findings round has %d threads; the per-thread points need at least 2", threads)
	}

	// The fix round: wakeups (autonomous: the plan executes in the wakeup
	// that stores it) until the first point is reached, then one killed
	// wakeup per point.
	fix := crashPoints([]string{policy.OpEditFiles, policy.OpRunValidation, policy.OpCommit, policy.OpPush,
		policy.OpReplyToCodexThreads, policy.OpRequestCodexReview, policy.OpUpdateAutomation},
		map[string]int{policy.OpReplyToCodexThreads: threads})
	w.crashWakeUntilKilled(key, fix[0])
	for _, p := range fix[1:] {
		w.crashKilledAt(key, p)
	}
	if c := w.crashCheckpoint(runID); c.FixRounds != 1 {
		t.Fatalf("after update-automation the checkpoint is at round %d, want 1", c.FixRounds)
	}

	// The author turns the PR into a draft, so that finalization has a
	// mark-draft-ready to do.
	pr, ok := w.sim.Bed.Repo.PR(1)
	if !ok {
		t.Fatal("no pull request")
	}
	pr.Update(func(p *ghsim.PullRequest) { p.Draft = true })

	fin := crashPoints([]string{policy.OpMarkDraftReady, policy.OpResolveCodexThreads}, map[string]int{policy.OpResolveCodexThreads: threads})
	w.crashWakeUntilKilled(key, fin[0])
	for _, p := range fin[1:] {
		w.crashKilledAt(key, p)
	}
	finish := crashPoints([]string{policy.OpDeleteAutomation}, nil)
	w.crashWakeUntilKilled(key, finish[0])
	for _, p := range finish[1:] {
		w.crashKilledAt(key, p)
	}
	// The automation is gone: the timer's `wakeup --all` still finds the
	// loop by its journal and finishes it, exactly once.
	r := w.gh(nil, "wakeup", "--all", "--json")
	if r.code != 0 {
		t.Fatalf("the last wakeup: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if outs := outcomes(w.t, r.stdout); len(outs) != 1 || outs[0].Key != key || outs[0].Action != "finish-finalization" || outs[0].Error != "" {
		t.Fatalf("the last wakeup: %+v", outs)
	}
	if r := w.gh(nil, "wakeup", "--all", "--json"); r.code != 0 || strings.TrimSpace(r.stdout) != "" {
		t.Fatalf("a wakeup --all after the end: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// `wakeup KEY` still finds the finalized run: done, nothing more.
	if r := w.crashWake(key, ""); r.code != 0 || !strings.Contains(r.stdout, `"action":"done"`) {
		t.Fatalf("wakeup KEY after the end: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.crashCheckEnd(runID, threads)
}

// crashCheckEnd: the loop's end state after the kills. From /_sim/state
// and the simulator's counters: two pushes (round 0, the fix), one reply
// per thread, every thread resolved once, one request per round, the PR
// marked ready once; on the git server one fix commit with the round's
// trailer; in the state directory the automation deleted, finalized_at
// recorded, every journal entry of every plan receipted, no temporary file.
func (w *world) crashCheckEnd(runID string, threads int) {
	t := w.t
	t.Helper()
	w.checkLoopEnd(runID)
	st := loopSimState(t, w)
	if st.Pulls[0].Draft || st.Pulls[0].State != "open" {
		t.Errorf("pull request draft=%v state=%s, want ready and open", st.Pulls[0].Draft, st.Pulls[0].State)
	}
	if n := w.crashRoundCommits(runID, st.Pulls[0].Head, "1"); n != 1 {
		t.Errorf("%d fix commits with Prloop-Round: 1 on the head branch, want 1", n)
	}
	stats := w.crashSimStats()
	t.Logf("GraphQL operations: %v", stats.ByOperation)
	for op, want := range map[string]int{"MarkReadyForReview": 1, "ResolveThread": threads, "ReplyToThread": threads} {
		if got := stats.ByOperation[op]; got != want {
			t.Errorf("%d %s mutations, want exactly %d", got, op, want)
		}
	}
	c := w.crashCheckpoint(runID)
	if c.FinalizedAt == nil || c.MergeGateReport == nil || c.Claim != nil || c.FixRounds != 1 {
		t.Errorf("checkpoint: finalized_at %v, report %v, claim %+v, fix rounds %d", c.FinalizedAt, c.MergeGateReport, c.Claim, c.FixRounds)
	}
	journal := w.crashJournal(runID)
	want := map[string]int{"initial": 7, remediate.Phase(1): 7, finalize.Phase: 2, finalize.PhaseFinish: 1}
	for phase, n := range want {
		if got := len(journal[phase]); got < n {
			t.Errorf("journal phase %s has %d records, want %d", phase, got, n)
		}
	}
	for phase, entries := range journal {
		for _, e := range entries {
			if !e.Done() {
				t.Errorf("journal %s: operation %d (%s) has no receipt", phase, e.Index, e.Op)
			}
		}
	}
	w.crashNoTempFiles()
}

// Two `wakeup --all` at once, at every step of an approval-gated loop
// (findings → remediation approved by hash → clean → finalization approved
// → finish): the two never do the same plan (one acts; the other reports
// the loop busy, or takes the lock after it and sees what it left, e.g.
// the next plan), every execute action happens exactly once over the
// whole loop, and the end state holds exactly one of every side effect.
func TestTwoWakeupAllAtOnce(t *testing.T) {
	w := newLoopWorld(t)
	runID := w.approve()
	if r := w.gh(nil, "apply", runID); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.setFixer(runID)
	executes := map[string]int{}
	approved := map[string]bool{}
	busy := 0
	for range 300 {
		if len(w.automations()) == 0 {
			break
		}
		var wg sync.WaitGroup
		res := make([]result, 2)
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i] = w.gh(nil, "wakeup", "--all", "--json")
			}()
		}
		wg.Wait()
		acted := map[string]int{} // action and plan hash → processes of this pair that executed it
		for _, r := range res {
			if r.code != 0 && r.code != 8 {
				t.Fatalf("wakeup --all: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			outs := outcomes(w.t, r.stdout)
			if len(outs) > 1 {
				t.Fatalf("one loop, %d outcomes: %+v", len(outs), outs)
			}
			for _, o := range outs {
				switch {
				case o.Error != "":
					t.Fatalf("wakeup error: %+v", o)
				case o.Action == wakeup.ActionBusy:
					busy++
				case strings.HasPrefix(o.Action, "execute-") || o.Action == "finish-finalization":
					acted[o.Action+" "+o.PlanHash]++
					executes[o.Action]++
				case o.Exit == wakeup.ExitPending && !approved[o.PlanHash]:
					approved[o.PlanHash] = true
					if a := w.gh(nil, "approve", "--hash", o.PlanHash); a.code != 0 {
						t.Fatalf("approve --hash %s: exit %d\n%s\n%s", o.PlanHash, a.code, a.stdout, a.stderr)
					}
				}
			}
		}
		for plan, n := range acted {
			if n > 1 {
				t.Fatalf("both processes of one pair did %s:\n%s\n%s", plan, res[0].stdout, res[1].stdout)
			}
		}
		time.Sleep(300 * time.Millisecond) // lets simulated time pass; nothing is asserted about it
	}
	t.Logf("executed %v; %d busy reports; approved %d plans", executes, busy, len(approved))
	for _, a := range []string{"execute-remediation", "execute-finalization", "finish-finalization"} {
		if executes[a] != 1 {
			t.Errorf("%s executed %d times, want exactly once: %v", a, executes[a], executes)
		}
	}
	w.checkLoopEnd(runID)
}
