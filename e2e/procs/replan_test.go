package procs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// replanCheckDelay is how long CI runs after each push in the replan
// worlds: far longer than the bot's three 20 s steps, so Codex's 👍 on the
// fix is read while the fix's check is still pending and the finalization
// plan binds checks "pending".
const replanCheckDelay = 30 * time.Minute

// replanCheckpoint is the part of a run's checkpoint.json the replan
// clock looks at.
type replanCheckpoint struct {
	FinalizationManifest *struct {
		Gates struct {
			Checks string `json:"checks"`
		} `json:"gates"`
	} `json:"finalization_manifest"`
	FinalizationApproval *json.RawMessage `json:"finalization_approval"`
}

// pendingFinalization: a finalization plan that binds a pending check.
func (c replanCheckpoint) pendingFinalization() bool {
	return c.FinalizationManifest != nil && c.FinalizationManifest.Gates.Checks == "pending"
}

// newReplanWorld is the loop world (findings, then 👍; 30× time) whose CI
// finishes exactly when the product has stored a finalization plan that
// binds the pending check and trigger says so: the simulator's clock jumps
// past the check's completion at its next reading. That is the race of
// gates moving under a stored plan, made deterministic: the jump happens
// at the first request after the checkpoint shows the condition (a wakeup's
// re-validation before the first side effect, or the next wakeup).
func newReplanWorld(t *testing.T, trigger func(replanCheckpoint) bool) *world {
	t.Helper()
	state := t.TempDir()
	scaled, err := ghsim.NewScaledClock(time.Now().UTC().Truncate(time.Second), 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	var jumped atomic.Bool
	clock := func() time.Time {
		if !jumped.Load() && replanTriggered(state, trigger) {
			jumped.Store(true)
		}
		if jumped.Load() {
			return scaled.Now().Add(replanCheckDelay)
		}
		return scaled.Now()
	}
	gates := standalone.DefaultGates()
	gates.CheckDelay = replanCheckDelay
	w := worldOn(t, standalone.Options{
		Dir: t.TempDir(), Clock: clock, BotDelay: 20 * time.Second, Gates: &gates,
		Scenarios: []ghsim.ScenarioKind{ghsim.Findings, ghsim.CleanByReaction},
	}, state)
	t.Cleanup(func() {
		if !jumped.Load() {
			t.Error("the clock never jumped: no finalization plan bound a pending check (the world did not race)")
		}
	})
	return w
}

// replanTriggered reads every run checkpoint under state (a torn or
// missing file is simply not yet the condition).
func replanTriggered(state string, trigger func(replanCheckpoint) bool) bool {
	files, _ := filepath.Glob(filepath.Join(state, "runs", "*", "checkpoint.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var c replanCheckpoint
		if json.Unmarshal(data, &c) == nil && trigger(c) {
			return true
		}
	}
	return false
}

// replanSuperseded are the outcomes that superseded a plan.
func replanSuperseded(outs []wakeup.Outcome) []wakeup.Outcome {
	var sup []wakeup.Outcome
	for _, o := range outs {
		if o.Superseded != "" {
			sup = append(sup, o)
		}
	}
	return sup
}

// The gates race, autonomous, real processes: CI passes between the
// finalization plan and its re-validation in the same wakeup. The plan is
// superseded before any side effect, the new plan (checks pass) executed
// in that wakeup, and the loop reaches done with no halt.
func TestReplanAutonomousLoopReachesDone(t *testing.T) {
	w := newReplanWorld(t, func(c replanCheckpoint) bool { return c.pendingFinalization() && c.FinalizationApproval == nil })
	r := w.gh(nil, "start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json",
		"--fixer", "'"+binary+"' sim fix")
	if r.code != 0 {
		t.Fatalf("start: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	runID := startResult(t, r).RunID
	outs := w.wakeups(nil) // any halt (exit 1) fails here
	executedOnceInOrder(t, outs)
	sup := replanSuperseded(outs)
	if len(sup) != 1 || sup[0].Action != "execute-finalization" || sup[0].PlanHash == sup[0].Superseded || sup[0].Exit != 0 {
		t.Fatalf("superseding outcomes %+v, want one execute-finalization of a new plan", sup)
	}
	w.checkLoopEnd(runID)
	replanFinalChecks(t, w, runID, "pass")
}

// The gates race, approval-gated, real processes: the finalization plan
// is approved while CI runs; CI passes; the next wakeup supersedes the
// approved plan and stops with exit 8 and a NEW hash (the old approval
// does not authorize it). `approve --hash OLD` is refused from then on;
// `approve --hash NEW` works and the loop reaches done.
func TestReplanApprovalGatedNeedsTheNewHash(t *testing.T) {
	w := newReplanWorld(t, func(c replanCheckpoint) bool { return c.pendingFinalization() && c.FinalizationApproval != nil })
	runID := w.approve()
	if r := w.gh(nil, "apply", runID); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.setFixer(runID)
	var approved []string
	outs := w.wakeups(func(hash string) {
		for _, old := range approved {
			if r := w.gh(nil, "approve", "--hash", old); r.code != 1 {
				t.Fatalf("approve --hash %s (an earlier plan's) while %s waits: exit %d\n%s\n%s", old, hash, r.code, r.stdout, r.stderr)
			}
		}
		if r := w.gh(nil, "approve", "--hash", hash); r.code != 0 {
			t.Fatalf("approve --hash %s: exit %d\n%s\n%s", hash, r.code, r.stdout, r.stderr)
		}
		approved = append(approved, hash)
	})
	executedOnceInOrder(t, outs)
	sup := replanSuperseded(outs)
	if len(sup) != 1 {
		t.Fatalf("superseding outcomes %+v, want one", sup)
	}
	s := sup[0]
	if s.Action != "await-approval" || s.Exit != 8 || s.PlanHash == s.Superseded {
		t.Fatalf("the superseding wakeup %+v: want exit 8 with a new hash", s)
	}
	// Approved: the remediation plan, the superseded finalization plan, its
	// replacement — in that order.
	if len(approved) != 3 || approved[1] != s.Superseded || approved[2] != s.PlanHash {
		t.Fatalf("approved %v; superseded %s by %s", approved, s.Superseded, s.PlanHash)
	}
	w.checkLoopEnd(runID)
	replanFinalChecks(t, w, runID, "pass")
}

// replanFinalChecks: the merge-gate report finish-finalization recorded
// reads the checks gate as want.
func replanFinalChecks(t *testing.T, w *world, runID, want string) {
	t.Helper()
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := checkpoint.Read(run)
	if err != nil {
		t.Fatal(err)
	}
	if c.FinalizedAt == nil || c.MergeGateReport == nil || c.MergeGateReport.Gates.Checks != want {
		t.Fatalf("finalized %v, merge-gate report %+v; want checks %s", c.FinalizedAt, c.MergeGateReport, want)
	}
}
