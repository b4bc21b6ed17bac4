package procs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// Every halt of issue 8's acceptance, each with real processes on the
// standalone simulator and a real checkout: `start --mode autonomous`,
// then `wakeup` until the halt. Each asserts that the halting wakeup exits
// 1 with action halt and the reason on its --json line, that `automations
// list` and `show` print the loop PAUSED with the reason, that nothing was
// written by the halt (pushes, comments, replies, resolutions, the PR, the
// checkout), and that a later `wakeup --all` leaves the loop alone.

// The request deadline passes with no answer from Codex (silence): a
// minute before it the loop still waits, after it the loop halts.
func TestHaltRequestTimeout(t *testing.T) {
	h := haltNewWorld(t, ghsim.Silent)
	h.haltStart(haltSimFixer())
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	h.clock.Advance((policy.RequestTimeoutSecs - 60) * time.Second)
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	h.clock.Advance(61 * time.Second)
	before := h.haltWritten()
	o := h.haltWakeOne(evaluate.ActionHalt, evaluate.ReasonRequestTimeout, 1)
	h.haltCheckHalted(o, evaluate.ReasonRequestTimeout, before)
}

// What people change on GitHub under a waiting loop (Codex silent), on one
// loop in turn, each halt checked in full: a commit pushed to the head
// branch from another clone (head-drift); once that push is taken back
// and the human resumes the loop (`automations resume`), the PR closed
// through the API (pr-closed); once it is reopened and the loop resumed,
// the PR merged through the API (pr-merged). Between the halts the resumed
// loop waits again: a halt leaves nothing behind that a resume must undo.
func TestHaltsWhenPeopleChangeThePR(t *testing.T) {
	h := haltNewWorld(t, ghsim.Silent)
	h.haltStart(haltSimFixer())
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	head := loopSimState(t, h.world).Pulls[0].HeadSHA

	// A foreign push: host git in another clone, with the world's CA and
	// credential helper.
	other := filepath.Join(t.TempDir(), "other")
	h.haltGit(filepath.Dir(other), "clone", "-q", "--branch", testbed.HeadBranch, h.sim.Info().GitURL, other)
	if err := os.WriteFile(filepath.Join(other, "NOTES.md"), []byte("someone else's change\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.haltGit(other, "add", "NOTES.md")
	h.haltGit(other, "commit", "-q", "-m", "A change from elsewhere")
	h.haltGit(other, "push", "-q", "origin", "HEAD:refs/heads/"+testbed.HeadBranch)
	pushed := h.haltGit(other, "rev-parse", "HEAD")
	if got := loopSimState(t, h.world).Pulls[0].HeadSHA; got != pushed {
		t.Fatalf("the PR's head is %s, not the foreign push %s", got, pushed)
	}
	before := h.haltWritten()
	o := h.haltWakeOne(evaluate.ActionHalt, evaluate.ReasonHeadDrift, 1)
	h.haltCheckHalted(o, evaluate.ReasonHeadDrift, before)
	h.haltGit(other, "push", "-q", "--force", "origin", head+":refs/heads/"+testbed.HeadBranch)
	h.haltResume()

	h.haltAPI("PATCH", haltPullPath(), `{"state":"closed"}`, 200)
	before = h.haltWritten()
	o = h.haltWakeOne(evaluate.ActionHalt, evaluate.ReasonPRClosed, 1)
	h.haltCheckHalted(o, evaluate.ReasonPRClosed, before)
	h.haltAPI("PATCH", haltPullPath(), `{"state":"open"}`, 200)
	h.haltResume()

	h.haltAPI("PUT", haltPullPath()+"/merge", `{"sha":"`+head+`","merge_method":"merge"}`, 200)
	before = h.haltWritten()
	o = h.haltWakeOne(evaluate.ActionHalt, evaluate.ReasonPRMerged, 1)
	h.haltCheckHalted(o, evaluate.ReasonPRMerged, before)
}

// The fix-round limit: Codex finds something in every round; the
// autonomous loop fixes five rounds with the scripted fixer (one push, one
// request each) and halts on the sixth findings instead of a sixth fix.
func TestHaltFixRoundLimit(t *testing.T) {
	kinds := make([]ghsim.ScenarioKind, policy.MaxFixRounds+1)
	for i := range kinds {
		kinds[i] = ghsim.Findings
	}
	h := haltNewWorld(t, kinds...)
	h.haltStart(haltSimFixer())
	var executed int
	var before haltWrites
	for range 4 * (policy.MaxFixRounds + 1) {
		h.clock.Advance(haltBotAnswers)
		before = h.haltWritten()
		r, outs := h.haltWake(h.key)
		if len(outs) != 1 {
			t.Fatalf("wakeup: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		o := outs[0]
		switch {
		case o.Action == evaluate.ActionExecuteRemediation && r.code == 0 && o.Error == "":
			executed++
		case o.Action == evaluate.ActionWait && r.code == 0:
		case o.Action == evaluate.ActionHalt:
			if r.code != 1 {
				t.Fatalf("halt with exit %d", r.code)
			}
			if executed != policy.MaxFixRounds {
				t.Fatalf("halted (%s) after %d fix rounds, want %d", o.Reason, executed, policy.MaxFixRounds)
			}
			h.haltCheckHalted(o, evaluate.ReasonFixRoundLimit, before)
			// One push per round: the initial commit and five fixes.
			if n := len(loopSimState(t, h.world).Pushes) - h.seedPushes; n != 1+policy.MaxFixRounds {
				t.Fatalf("%d pushes, want %d", n, 1+policy.MaxFixRounds)
			}
			return
		default:
			t.Fatalf("wakeup: exit %d, outcome %+v\n%s", r.code, o, r.stderr)
		}
	}
	t.Fatalf("no halt after %d fix rounds", executed)
}

// A fixer that also writes a file outside the plan's paths: the round
// halts at edit-files, nothing is committed or pushed, and the worktree is
// left as the fixer left it (the stray file is still there) for a human.
func TestHaltFixerOutsideThePlan(t *testing.T) {
	h := haltNewWorld(t, ghsim.Findings)
	fixer := haltScript(t, "fixer.sh", "'"+binary+"' sim fix \"$@\" || exit 1\nprintf 'not in the plan\\n' > STRAY.md\n")
	h.haltStart("/bin/sh '" + fixer + "'")
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	h.clock.Advance(haltBotAnswers)
	before := h.haltWritten()
	o := h.haltWakeOne(evaluate.ActionHalt, "remediation-"+policy.OpEditFiles, 1)
	if !strings.Contains(o.Message, "STRAY.md") {
		t.Errorf("the halt does not name the stray file: %q", o.Message)
	}
	stray, err := os.ReadFile(filepath.Join(h.sim.Info().Checkout, "STRAY.md"))
	if err != nil || string(stray) != "not in the plan\n" {
		t.Fatalf("the stray file is not left in the worktree: %q %v", stray, err)
	}
	// The fixer's changes stay in the worktree, uncommitted; the rest of
	// the world is as it was.
	after := h.haltWritten()
	if after.HeadRef != before.HeadRef || !strings.Contains(after.Worktree, "?? STRAY.md") {
		t.Fatalf("HEAD %s → %s, worktree:\n%s", before.HeadRef, after.HeadRef, after.Worktree)
	}
	before.Worktree = after.Worktree
	h.haltCheckHalted(o, "remediation-"+policy.OpEditFiles, before)
}

// A validation command that fails after the fix (it passed on the initial
// plan, before the scripted fixer changed anything): the round halts at
// run-validation, with nothing committed or pushed.
func TestHaltFailingValidation(t *testing.T) {
	h := haltNewWorld(t, ghsim.Findings)
	validate := haltScript(t, "validate.sh", "if grep -rqF prloop-sim-fix internal; then echo 'validation: the fix broke it' >&2; exit 3; fi\n")
	h.haltStart(haltSimFixer(), "/bin/sh '"+validate+"'")
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	h.clock.Advance(haltBotAnswers)
	before := h.haltWritten()
	o := h.haltWakeOne(evaluate.ActionHalt, "remediation-"+policy.OpRunValidation, 1)
	if !strings.Contains(o.Message, "exit 3") {
		t.Errorf("the halt does not give the command's exit status: %q", o.Message)
	}
	after := h.haltWritten()
	if after.HeadRef != before.HeadRef {
		t.Fatalf("HEAD moved %s → %s: something was committed", before.HeadRef, after.HeadRef)
	}
	before.Worktree = after.Worktree // the fixer's edit stays for the human
	h.haltCheckHalted(o, "remediation-"+policy.OpRunValidation, before)
}

// A stale claim. A wakeup that executes holds the run's lock for as long
// as it runs, so while it is alive every other wakeup reports the loop
// busy and does nothing (asserted below): a stopped (SIGSTOP) holder can
// never be seen as a stale claim, only as busy. The claim outlives its
// holder's lock only when the holder is gone — the kernel releases the
// flock when a process dies — and a wakeup then releases the claim itself
// when it can prove the holder dead (same machine, no such pid). What is
// left for core is a claim whose holder this machine cannot prove gone:
// another machine sharing the state directory, or a pid that exists again.
// Here the wakeup is SIGKILLed while its fixer runs and is not reaped
// until the end, so its pid still exists (a zombie) while its lock is
// free: the next wakeup must not resume over that claim; it waits while
// the claim is live and halts stale-claim once simulated time passes the
// claim's TTL, with nothing pushed, replied or requested.
func TestHaltStaleClaim(t *testing.T) {
	h := haltNewWorld(t, ghsim.Findings)
	checkout := h.sim.Info().Checkout
	const running = ".halt-fixer-running"
	// The fixer marks that it runs, then blocks; run a second time (a
	// wakeup resuming over the claim) it fails at once instead.
	fixer := haltScript(t, "fixer.sh", "if [ -e "+running+" ]; then echo 'the fixer ran twice' >&2; exit 9; fi\n: > "+running+"\nexec sleep 600\n")
	h.haltStart("/bin/sh '" + fixer + "'")
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonAwaitingResponse, 0)
	h.clock.Advance(haltBotAnswers)

	holder := exec.Command(binary, "wakeup", h.key, "--json")
	holder.Dir, holder.Env = checkout, h.env()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	holder.Stdout, holder.Stderr = pw, pw
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	reaped := false
	t.Cleanup(func() {
		if !reaped {
			_ = holder.Process.Kill()
			_ = holder.Wait()
		}
	})
	// The pipe reaches EOF when the holder exits, without reaping it.
	var out bytes.Buffer
	exited := make(chan struct{})
	go func() {
		_, _ = io.Copy(&out, pr)
		close(exited)
	}()
	for {
		if _, err := os.Stat(filepath.Join(checkout, running)); err == nil {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the wakeup ended before its fixer ran:\n%s", out.String())
		case <-time.After(50 * time.Millisecond): // polling for the fixer's mark, nothing timed
		}
	}
	h.haltWakeOne(wakeup.ActionBusy, "locked", 0)
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	before := h.haltWritten()
	if n := before.Pushes - h.seedPushes; n != 1 {
		t.Fatalf("%d pushes, want the initial one only", n)
	}
	h.haltWakeOne(evaluate.ActionWait, evaluate.ReasonClaimed, 0)
	h.clock.Advance((policy.ClaimTTLSecs + 1) * time.Second)
	o := h.haltWakeOne(evaluate.ActionHalt, evaluate.ReasonStaleClaim, 1)
	if !strings.Contains(o.Message, fmt.Sprintf(":%d", holder.Process.Pid)) {
		t.Errorf("the halt does not name the holder (pid %d): %q", holder.Process.Pid, o.Message)
	}
	reaped = true
	if err := holder.Wait(); err == nil || holder.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the holder was not killed: %v", err)
	}
	h.haltCheckHalted(o, evaluate.ReasonStaleClaim, before)
}
