package wakeup_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// hookDeps wires the remediation executor with console hooks.
func (w *world) hookDeps(opts wakeup.RemediationOptions) wakeup.Deps {
	d := w.deps()
	rd := remediate.Deps{Git: w.bed.Runner, GitHub: w.gh, Commands: initial.Sandbox{}, Fixer: remediate.FixerSandbox{NoNetwork: true}, Now: w.clock.Now}
	d.Executors = map[string]wakeup.Executor{
		evaluate.ActionExecuteRemediation: wakeup.RemediationExecutor(rd, wakeup.LocalCheckout{Git: w.bed.Runner}.CheckoutPush, opts),
	}
	return d
}

// approvedRemediation is the world after Codex's findings with the fix
// round's plan approved.
func (w *world) approvedRemediation(d wakeup.Deps) {
	w.t.Helper()
	w.codexAnswers()
	o := w.wake()
	if o.Action != evaluate.ActionAwaitApproval {
		w.t.Fatalf("findings: %+v", o)
	}
	if _, err := wakeup.Approve(context.Background(), d, w.key, o.PlanHash, w.bed.Viewer.ID); err != nil {
		w.t.Fatal(err)
	}
}

// A headless wakeup of an approval-gated round without a fixer does
// nothing and names the console that can edit it; the console's hooks then
// run the round: the hand edit, then the diff before the commit.
func TestHandEditRoundNeedsTheConsole(t *testing.T) {
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings})
	w.wake()
	w.approvedRemediation(w.deps())
	pushes0 := w.bed.GitServer.Pushes()
	o := wakeup.One(t.Context(), w.hookDeps(wakeup.RemediationOptions{}), w.key)
	if !strings.Contains(o.Error, "gh-prloop watch "+w.key) || o.Action == evaluate.ActionHalt {
		t.Fatalf("headless hand-edit round: %+v", o)
	}
	if w.bed.GitServer.Pushes() != pushes0 || w.automation().Status != "ACTIVE" {
		t.Fatal("the headless wakeup acted or paused the loop")
	}
	var asked []string
	var shown string
	opts := wakeup.RemediationOptions{
		WaitForHandEdit: func(_ context.Context, paths []string) error {
			asked = paths
			for _, p := range paths {
				if err := os.WriteFile(w.bed.Path(p), []byte("// fixed by hand\n"), 0o644); err != nil {
					return err
				}
			}
			return nil
		},
		ConfirmDiff: func(_ context.Context, diff []byte) error { shown = string(diff); return nil },
	}
	x := wakeup.One(t.Context(), w.hookDeps(opts), w.key)
	if x.Action != evaluate.ActionExecuteRemediation || x.Error != "" {
		t.Fatalf("with the console: %+v", x)
	}
	if len(asked) == 0 || !strings.Contains(shown, "+// fixed by hand") || w.bed.GitServer.Pushes() != pushes0+1 {
		t.Fatalf("asked %v, diff %q, pushes %d→%d", asked, shown, pushes0, w.bed.GitServer.Pushes())
	}
}

// ConfirmDiff is handed on in approval-gated mode whoever edits (the
// fixer's diff too), never in autonomous mode.
func TestDiffConfirmationOnlyWhenApprovalGated(t *testing.T) {
	needSandbox(t)
	for _, mode := range []string{policy.ModeApprovalGated, policy.ModeAutonomous} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, mode, ghsim.Scenario{Kind: ghsim.Findings})
			w.wake()
			fixer := w.fixer()
			w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
			confirmed := 0
			d := w.hookDeps(wakeup.RemediationOptions{ConfirmDiff: func(context.Context, []byte) error { confirmed++; return nil }})
			if mode == policy.ModeApprovalGated {
				w.approvedRemediation(d)
			} else {
				w.codexAnswers()
			}
			if x := wakeup.One(t.Context(), d, w.key); x.Action != evaluate.ActionExecuteRemediation || x.Error != "" {
				t.Fatalf("execute: %+v", x)
			}
			if want := map[string]int{policy.ModeApprovalGated: 1, policy.ModeAutonomous: 0}[mode]; confirmed != want {
				t.Fatalf("the diff was confirmed %d times, want %d", confirmed, want)
			}
		})
	}
}
