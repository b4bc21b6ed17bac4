package wakeup_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/sandbox"
)

// fixer writes a fixer that appends one line to each file the findings
// name (fixer contract v1: the input file is the last argument).
func (w *world) fixer() []string {
	w.t.Helper()
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\nfor last; do :; done\ntest -s \"$last\"\n")
	for _, f := range ghsim.DefaultFindings() {
		b.WriteString("printf '\\n// fixed\\n' >> '" + f.Path + "'\n")
	}
	p := filepath.Join(w.t.TempDir(), "fixer.sh")
	if err := os.WriteFile(p, []byte(b.String()), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return []string{"/bin/sh", p}
}

// remediationDeps wires the real remediation executor; fault may crash it.
func (w *world) remediationDeps(fault func(string) bool) wakeup.Deps {
	d := w.deps()
	rd := remediate.Deps{Git: w.bed.Runner, GitHub: w.gh, Commands: initial.Sandbox{}, Fixer: remediate.FixerSandbox{NoNetwork: true},
		Now: w.clock.Now, Fault: fault}
	fd := finalize.Deps{GitHub: w.gh, Registry: w.reg, Now: w.clock.Now, Fault: fault}
	d.Executors = map[string]wakeup.Executor{
		evaluate.ActionExecuteRemediation:  wakeup.RemediationExecutor(rd, wakeup.LocalCheckout{Git: w.bed.Runner}.CheckoutPush, wakeup.RemediationOptions{}),
		evaluate.ActionExecuteFinalization: wakeup.FinalizationExecutor(fd, nil),
		evaluate.ActionFinishFinalization:  wakeup.FinishExecutor(fd, nil),
	}
	return d
}

func needSandbox(t *testing.T) {
	if caps := sandbox.Probe(t.Context()); !caps.WritesConfined || !caps.MinimalEnv {
		t.Skipf("no sandbox for the fixer here: %v", caps.Reasons)
	}
}

// The loop in approval-gated mode: findings → remediation approved by hash
// and executed (one commit, one reply per thread, the round-1 request, the
// checkpoint at round 1) → the next request's clean verdict → a
// finalization plan awaiting approval.
func TestLoopFindingsRemediationThenFinalizationPlan(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Findings}, ghsim.Scenario{Kind: ghsim.ZeroFindings})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	w.codexAnswers()
	o := w.wake()
	if o.Action != evaluate.ActionAwaitApproval {
		t.Fatalf("findings: %+v", o)
	}
	d := w.remediationDeps(nil)
	if _, err := wakeup.Approve(t.Context(), d, w.key, o.PlanHash, w.bed.Viewer.ID); err != nil {
		t.Fatal(err)
	}
	pushes0 := w.bed.GitServer.Pushes()
	x := wakeup.One(t.Context(), d, w.key)
	if x.Action != evaluate.ActionExecuteRemediation || x.Error != "" || x.Exit != 0 {
		t.Fatalf("execute: %+v", x)
	}
	w.checkRoundOne(pushes0)
	if o := w.wake(); o.Action != evaluate.ActionWait {
		t.Fatalf("after the round: %+v", o)
	}
	w.codexAnswers()
	f := w.wake()
	if f.Action != evaluate.ActionAwaitApproval || f.Reason != evaluate.ReasonFinalizationPlan {
		t.Fatalf("after the clean verdict: %+v", f)
	}
	if _, err := wakeup.Approve(t.Context(), d, w.key, f.PlanHash, w.bed.Viewer.ID); err != nil {
		t.Fatal(err)
	}
	if x := wakeup.One(t.Context(), d, w.key); x.Action != evaluate.ActionExecuteFinalization || x.Reason != evaluate.ReasonApproved || x.Error != "" {
		t.Fatalf("execute-finalization: %+v", x)
	}
	// The post-mutation plan needs no approval: plan → finish in one wakeup.
	fin := wakeup.One(t.Context(), d, w.key)
	if fin.Action != evaluate.ActionFinishFinalization || fin.Reason != evaluate.ReasonPostMutation || fin.Error != "" {
		t.Fatalf("finish: %+v", fin)
	}
	w.checkFinalized()
	if done := wakeup.One(t.Context(), d, w.key); done.Action != evaluate.ActionDone || done.Exit != 0 {
		t.Fatalf("after finalization: %+v", done)
	}
}

// The same loop in autonomous mode runs on wakeups alone: findings →
// remediation → clean → finalization → done.
func TestAutonomousLoopToDone(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings}, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	d := w.remediationDeps(nil)
	var actions []string
	for range 8 {
		w.codexAnswers()
		o := wakeup.One(t.Context(), d, w.key)
		if o.Error != "" || o.Exit == wakeup.ExitHalt {
			t.Fatalf("wakeup: %+v", o)
		}
		actions = append(actions, o.Action)
		if o.Action == evaluate.ActionDone {
			break
		}
	}
	want := []string{evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization, evaluate.ActionDone}
	if !slices.Equal(actions, want) {
		t.Fatalf("actions %v, want %v", actions, want)
	}
	w.checkFinalized()
}

// checkFinalized: the automation is gone, the PR is ready, every Codex
// thread is resolved, and the checkpoint has finalized_at and the report.
func (w *world) checkFinalized() {
	w.t.Helper()
	if _, ok, _ := w.reg.Get(context.Background(), w.key); ok {
		w.t.Fatal("the automation still exists")
	}
	if w.pr.Data().Draft {
		w.t.Fatal("the PR is still a draft")
	}
	for _, th := range w.pr.Threads() {
		if !th.Resolved {
			w.t.Fatalf("thread %s is not resolved", th.NodeID)
		}
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		w.t.Fatal(err)
	}
	if c.FinalizedAt == nil || c.MergeGateReport == nil || c.Claim != nil {
		w.t.Fatalf("checkpoint after finalization: %+v", c)
	}
}

// checkRoundOne: exactly one push, one round-1 request, one reply per
// thread carrying the reply marker, and the checkpoint at round 1 with the
// new request and no plan, no claim.
func (w *world) checkRoundOne(pushes0 int) {
	w.t.Helper()
	if n := w.bed.GitServer.Pushes() - pushes0; n != 1 {
		w.t.Fatalf("%d pushes, want 1", n)
	}
	c, err := checkpoint.Read(w.run())
	if err != nil {
		w.t.Fatal(err)
	}
	if c.FixRounds != 1 || len(c.CompletedRequestKeys) != 1 || c.RemediationManifest != nil || c.Claim != nil || len(c.AnsweredThreads) != 2 {
		w.t.Fatalf("checkpoint after round 1: %+v", c)
	}
	if d := w.pr.Data(); d.HeadSHA != c.RequestHeadSHA {
		w.t.Fatalf("PR head %s, checkpoint requests %s", d.HeadSHA, c.RequestHeadSHA)
	}
	requests := 0
	for _, cm := range w.pr.Comments() {
		if strings.Contains(cm.Body, policy.RequestMarker(w.runID, 1, c.RequestHeadSHA)) {
			requests++
		}
	}
	if requests != 1 {
		w.t.Fatalf("%d round-1 requests, want 1", requests)
	}
	for _, th := range w.pr.Threads() {
		n := 0
		for _, rc := range w.pr.ReviewComments() {
			if strings.Contains(rc.Body, remediate.ReplyMarker(w.runID, 1, th.NodeID)) {
				n++
			}
		}
		if n != 1 {
			w.t.Fatalf("thread %s has %d replies of round 1, want 1", th.NodeID, n)
		}
	}
}

// A wakeup killed before or after a side effect of the remediation leaves
// its claim behind; the next wakeup releases the dead holder's claim,
// resumes the journal and ends with exactly one of each side effect.
func TestWakeupResumesAnInterruptedRemediation(t *testing.T) {
	needSandbox(t)
	points := []string{"before:" + policy.OpCommit, "after:" + policy.OpPush, "after:" + policy.OpRequestCodexReview, "before:" + policy.OpUpdateAutomation}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings})
			w.wake()
			fixer := w.fixer()
			w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
			w.codexAnswers()
			pushes0 := w.bed.GitServer.Pushes()
			d := w.remediationDeps(func(p string) bool { return p == point })
			if o := wakeup.One(t.Context(), d, w.key); !strings.Contains(o.Error, remediate.ErrCrashed.Error()) {
				t.Fatalf("the crash at %s was not reached: %+v", point, o)
			}
			// As SIGKILL would have left it: the claim of a process gone.
			w.editCheckpoint(func(c *checkpoint.Checkpoint) {
				host, _ := os.Hostname()
				c.Claim = claimOf(c, fmt.Sprintf("%s:%d", host, deadPID(t)), w.clock.Now())
			})
			o := wakeup.One(context.Background(), w.remediationDeps(nil), w.key)
			if o.Action != evaluate.ActionExecuteRemediation || o.Reason != wakeup.ReasonResume || o.Error != "" || !strings.Contains(o.Done, "released the claim") {
				t.Fatalf("resumed wakeup: %+v", o)
			}
			w.checkRoundOne(pushes0)
		})
	}
}

// A fixer that changes a file outside the approved paths halts the round:
// nothing is committed or pushed, the automation is paused with the reason.
func TestFixerOutsideThePlanHaltsAndPauses(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings})
	w.wake()
	script := filepath.Join(t.TempDir(), "fixer.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf 'x\\n' >> README.md\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = []string{"/bin/sh", script} })
	w.codexAnswers()
	pushes0 := w.bed.GitServer.Pushes()
	o := wakeup.One(t.Context(), w.remediationDeps(nil), w.key)
	if o.Action != evaluate.ActionHalt || o.Exit != wakeup.ExitHalt || !strings.Contains(o.Reason, policy.OpEditFiles) {
		t.Fatalf("outcome %+v", o)
	}
	if a := w.automation(); a.Status != "PAUSED" || !strings.Contains(a.Reason, policy.OpEditFiles) {
		t.Fatalf("automation %s %q", a.Status, a.Reason)
	}
	if n := w.bed.GitServer.Pushes() - pushes0; n != 0 {
		t.Fatalf("%d pushes after a fixer outside the plan", n)
	}
}
