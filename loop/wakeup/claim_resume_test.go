package wakeup_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// An interrupted execution whose claim belongs to a holder that may still
// run (another machine, or a pid that still exists) is not resumed over
// that claim: core decides as for any claim — wait while it is live, halt
// stale-claim (automation paused) once it expired — and nothing is pushed.
func TestInterruptedExecutionUnderAForeignClaimIsNotResumed(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	w.codexAnswers()
	pushes0 := w.bed.GitServer.Pushes()
	point := "before:" + policy.OpCommit
	if o := wakeup.One(t.Context(), w.remediationDeps(func(p string) bool { return p == point }), w.key); !strings.Contains(o.Error, remediate.ErrCrashed.Error()) {
		t.Fatalf("the crash at %s was not reached: %+v", point, o)
	}
	// As a holder this machine cannot check would have left it.
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Claim = claimOf(c, "other-host:42", w.clock.Now()) })
	o := wakeup.One(t.Context(), w.remediationDeps(nil), w.key)
	if o.Action != evaluate.ActionWait || o.Reason != evaluate.ReasonClaimed || o.Exit != 0 {
		t.Fatalf("live foreign claim over an interrupted execution: %+v", o)
	}
	w.clock.Advance((policy.ClaimTTLSecs + 1) * time.Second)
	o = wakeup.One(t.Context(), w.remediationDeps(nil), w.key)
	if o.Action != evaluate.ActionHalt || o.Reason != evaluate.ReasonStaleClaim || o.Exit != wakeup.ExitHalt {
		t.Fatalf("expired foreign claim over an interrupted execution: %+v", o)
	}
	if a := w.automation(); a.Status != "PAUSED" || !strings.Contains(a.Reason, evaluate.ReasonStaleClaim) {
		t.Fatalf("automation %s %q", a.Status, a.Reason)
	}
	if n := w.bed.GitServer.Pushes() - pushes0; n != 0 {
		t.Fatalf("%d pushes under another holder's claim", n)
	}
}
