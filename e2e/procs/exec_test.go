package procs

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/initial"
)

func TestStartAutonomousEndToEnd(t *testing.T) {
	w := newWorld(t)
	res := startResult(t, w.gh(nil, "start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json", "--fixer", "true"))
	w.checkEndState(res.RunID)
}

func TestApplyAfterPlanEndToEnd(t *testing.T) {
	w := newWorld(t)
	runID := w.approve()
	// Without RUN, apply picks the checkout's only pending plan.
	r := w.gh(nil, "apply")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "bootstrap-automation done") {
		t.Fatalf("plain output lacks the operation list:\n%s", r.stdout)
	}
	// The loop it leaves is ACTIVE: apply says what will wake it.
	if !strings.Contains(r.stderr, "Nothing wakes it yet: `gh-prloop schedule install`") && !strings.Contains(r.stderr, "The schedule wakes it") {
		t.Fatalf("apply does not say what wakes the loop:\n%s", r.stderr)
	}
	w.checkEndState(runID)
}

// apply is SIGKILLed before and after the side effect of every operation
// in turn, each process resuming what the previous one left (a reservation
// without a receipt), and a last apply completes: exactly one of each side
// effect and no torn file.
func TestApplyKilledAtEverySideEffect(t *testing.T) {
	w := newWorld(t)
	runID := w.approve()
	ops := []string{"fetch-base", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation"}
	for _, op := range ops {
		for _, when := range []string{"before:", "after:"} {
			r := w.gh([]string{"PRLOOP_FAULT=" + when + op}, "apply", runID, "--json")
			if r.signal != syscall.SIGKILL {
				t.Fatalf("%s%s: the process was not killed (exit %d)\n%s\n%s", when, op, r.code, r.stdout, r.stderr)
			}
		}
	}
	r := w.gh(nil, "apply", runID)
	if r.code != 0 {
		t.Fatalf("final apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.checkEndState(runID)
}

// The fault hook is ignored without the simulator environment: it can
// never crash a process working against GitHub.
func TestFaultHookNeedsTheSimulator(t *testing.T) {
	w := newWorld(t)
	runID := w.approve()
	r := w.gh([]string{"PRLOOP_FAULT=before:fetch-base", "GH_PRLOOP_SIM_API_URL="}, "apply", runID)
	if r.signal == syscall.SIGKILL {
		t.Fatal("the fault hook fired without the complete simulator environment")
	}
}

// Two apply processes at once: one acts, the other waits for the run lock
// or refuses with a message; either way exactly one of each side effect.
func TestTwoApplyAtOnce(t *testing.T) {
	w := newWorld(t)
	runID := w.approve()
	var wg sync.WaitGroup
	res := make([]result, 2)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = w.gh(nil, "apply", runID)
		}()
	}
	wg.Wait()
	acted := 0
	for _, r := range res {
		switch {
		case r.code == 0 && strings.Contains(r.stdout, "[1/7] fetch-base …"):
			acted++
		case r.code == 0 && strings.Contains(r.stdout, "already done (journal)"):
			// waited for the lock, then found every receipt
		case r.code == 1 && strings.Contains(r.stderr, "another gh-prloop is acting on this run"):
		default:
			t.Fatalf("unexpected outcome: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	}
	if acted != 1 {
		t.Fatalf("%d processes acted, want exactly 1", acted)
	}
	w.checkEndState(runID)
}

// Drift between plan and apply, through the real binary: exit 1, the
// changed field named on stderr, nothing pushed and nothing journaled.
func TestApplyRefusesDrift(t *testing.T) {
	w := newWorld(t)
	runID := w.approve()
	edited := filepath.Join(w.sim.Info().Checkout, testbed.ModifiedFile)
	if err := os.WriteFile(edited, []byte("package httpclient\n// edited after approval\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.gh(nil, "apply", runID)
	if r.code != 1 || !strings.Contains(r.stderr, "/initial_snapshot/diff_sha256") || !strings.Contains(r.stderr, "nothing was done") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if n := w.sim.Bed.GitServer.Pushes() - w.pushes0; n != 0 {
		t.Fatalf("%d pushes despite drift", n)
	}
	entries, _ := os.ReadDir(filepath.Join(w.state, "runs"))
	for _, e := range entries {
		if names, _ := filepath.Glob(filepath.Join(w.state, "runs", e.Name(), initial.Phase+"-*")); len(names) != 0 {
			t.Fatalf("journal records despite drift: %v", names)
		}
	}
}
