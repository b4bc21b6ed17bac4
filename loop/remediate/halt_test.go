package remediate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/internal/looptest"
	"github.com/prloop/gh-prloop/loop/remediate"
)

// nothingPushed: the remote head branch is still at the plan's head and no
// push happened.
func nothingPushed(w *looptest.World, pushes0 int) {
	w.T.Helper()
	if got := w.BareGit("rev-parse", "refs/heads/"+w.Plan.Doc.InitialSnapshot.HeadBranch); got != w.Init.FinalHeadSHA {
		w.T.Fatalf("the remote moved to %s", got)
	}
	if w.Bed.GitServer.Pushes() != pushes0 {
		w.T.Fatal("something was pushed")
	}
}

func wantHalt(t *testing.T, err error, op, saw string) {
	t.Helper()
	var h *remediate.HaltError
	if !errors.As(err, &h) || h.Op != op || !strings.Contains(h.Saw, saw) {
		t.Fatalf("err = %v, want a %s halt saying %q", err, op, saw)
	}
}

// A fixer that also touches a file outside the approved paths: the round
// aborts with nothing committed and the worktree left for the human.
func TestFixerOutsideTheApprovedPathsAborts(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	pushes0 := w.Bed.GitServer.Pushes()
	head, _ := w.Bed.Runner.Run(context.Background(), w.Bed.Checkout, "rev-parse", "HEAD")
	fixer := w.FixerScript(append(w.Paths(), "README.md")...)
	_, err := w.Execute(nil, fixer)
	wantHalt(t, err, policy.OpEditFiles, "README.md outside the approved paths")
	nothingPushed(w, pushes0)
	if now, _ := w.Bed.Runner.Run(context.Background(), w.Bed.Checkout, "rev-parse", "HEAD"); string(now) != string(head) {
		t.Fatal("HEAD moved: something was committed")
	}
	data, _ := os.ReadFile(w.Bed.Path("README.md"))
	if !strings.Contains(string(data), "fixed by the test fixer") {
		t.Fatal("the worktree was not left as the fixer left it")
	}
	// A second wakeup does not commit it either.
	_, err = w.Execute(nil, fixer)
	wantHalt(t, err, policy.OpEditFiles, "outside the approved paths")
	nothingPushed(w, pushes0)
}

// A fixer that fails, and a fixer that changes nothing, abort the round.
func TestFailingOrIdleFixerAborts(t *testing.T) {
	for fixer, saw := range map[string]string{"/bin/false": "the fixer failed", "/bin/true": "changed none of the approved paths"} {
		t.Run(fixer, func(t *testing.T) {
			t.Parallel()
			w := looptest.New(t)
			pushes0 := w.Bed.GitServer.Pushes()
			_, err := w.Execute(nil, []string{fixer})
			wantHalt(t, err, policy.OpEditFiles, saw)
			nothingPushed(w, pushes0)
		})
	}
}

// A validation command that fails aborts before the commit.
func TestFailingValidationAborts(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	cmd, err := local.ResolveCommandIn(w.Bed.Checkout, "false")
	if err != nil {
		t.Fatal(err)
	}
	w.PlanRemediation([]schema.Command{cmd})
	pushes0 := w.Bed.GitServer.Pushes()
	_, err = w.Execute(nil, w.FixerScript(w.Paths()...))
	wantHalt(t, err, policy.OpRunValidation, "failed")
	nothingPushed(w, pushes0)
}

// A passing validation command runs in the sandbox between edit and commit.
func TestValidationRunsBeforeTheCommit(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	cmd, err := local.ResolveCommandIn(w.Bed.Checkout, "true")
	if err != nil {
		t.Fatal(err)
	}
	w.PlanRemediation([]schema.Command{cmd})
	pushes0 := w.Bed.GitServer.Pushes()
	res, err := w.Execute(nil, w.FixerScript(w.Paths()...))
	if err != nil {
		t.Fatal(err)
	}
	checkEnd(w, res, pushes0)
	var ops []string
	for _, e := range w.Events {
		if e.Event == "operation-finished" {
			ops = append(ops, e.Op)
		}
	}
	if strings.Join(ops, ",") != "edit-files,run-validation,commit,push,reply-to-codex-threads,request-codex-review,update-automation" {
		t.Fatalf("operations ran as %v", ops)
	}
}

// A foreign push to the head branch while the round is interrupted before
// its push: the push halts naming what it saw, nothing after it runs.
func TestForeignPushHaltsThePush(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	fixer := w.FixerScript(w.Paths()...)
	if _, err := w.Execute(func(p string) bool { return p == "before:push" }, fixer); !errors.Is(err, remediate.ErrCrashed) {
		t.Fatalf("first run: %v", err)
	}
	if _, err := w.Bed.Runner.Run(context.Background(), w.Bed.Upstream, "push", "-q", "-f", testbed.RemoteName, testbed.BaseBranch+":refs/heads/"+testbed.HeadBranch); err != nil {
		t.Fatal(err)
	}
	_, err := w.Execute(nil, fixer)
	wantHalt(t, err, policy.OpPush, "neither the plan's head")
	if len(w.Updates) != 0 {
		t.Fatal("the automation was updated after the halt")
	}
}

// The plan rebuilt from fresh observations differs: nothing runs.
func TestDriftBeforeTheFirstSideEffect(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	job := w.Job(w.FixerScript(w.Paths()...))
	job.Revalidate = func(context.Context) (string, error) { return strings.Repeat("0", 64), nil }
	unlock, err := job.Run.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = remediate.Execute(context.Background(), w.Deps(nil), job)
	if err == nil || !strings.Contains(err.Error(), "nothing was done") {
		t.Fatalf("err = %v", err)
	}
	if _, rerr := job.Run.Read(remediate.Phase(1) + "-00-edit-files.json"); rerr == nil {
		t.Fatal("edit-files was reserved after a drift")
	}
	for _, p := range w.Paths() {
		data, _ := os.ReadFile(w.Bed.Path(p))
		if strings.Contains(string(data), "fixed by the test fixer") {
			t.Fatal("the fixer ran after a drift")
		}
	}
}

// Approval-gated without a fixer: the human edits while the console waits;
// the resulting diff is shown before the commit, and a declined diff
// commits nothing. Without a console the plan is refused.
func TestHandEditAndDiffConfirmation(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	pushes0 := w.Bed.GitServer.Pushes()
	if _, err := w.Execute(nil, nil); err == nil || !strings.Contains(err.Error(), "no fixer") {
		t.Fatalf("without fixer or console: %v", err)
	}
	job := w.Job(nil)
	var asked []string
	job.WaitForHandEdit = func(_ context.Context, paths []string) error {
		asked = paths
		for _, p := range paths {
			f, err := os.OpenFile(w.Bed.Path(p), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, _ = f.WriteString("\n// fixed by hand\n")
			f.Close()
		}
		return nil
	}
	var shown []byte
	job.ConfirmDiff = func(_ context.Context, diff []byte) error { shown = diff; return errors.New("declined") }
	unlock, err := job.Run.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = remediate.Execute(context.Background(), w.Deps(nil), job)
	unlock()
	wantHalt(t, err, policy.OpEditFiles, "not confirmed")
	if strings.Join(asked, ",") != strings.Join(w.Paths(), ",") {
		t.Fatalf("the console was asked for %v", asked)
	}
	if !strings.Contains(string(shown), "+// fixed by hand") {
		t.Fatalf("the diff shown was %q", shown)
	}
	nothingPushed(w, pushes0)
}

// A console that goes away while the human edits (or reads the diff) is
// not a "no": the hook's ErrInterrupted is returned as it is, edit-files
// stays reserved without a receipt, nothing is committed, and the next run
// resumes at the edit — the edit already made is judged, not asked again.
func TestInterruptedHandEditResumes(t *testing.T) {
	t.Parallel()
	w := looptest.New(t)
	pushes0 := w.Bed.GitServer.Pushes()
	run := func(job remediate.Job) (*remediate.Result, error) {
		unlock, err := job.Run.Lock(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		return remediate.Execute(context.Background(), w.Deps(nil), job)
	}
	edits := 0
	editByHand := func(_ context.Context, paths []string) error {
		edits++
		for _, p := range paths {
			f, err := os.OpenFile(w.Bed.Path(p), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, _ = f.WriteString("\n// fixed by hand\n")
			f.Close()
		}
		return nil
	}
	closed := fmt.Errorf("the console was closed: %w", remediate.ErrInterrupted)

	job := w.Job(nil)
	job.WaitForHandEdit = func(context.Context, []string) error { return closed }
	_, err := run(job)
	var h *remediate.HaltError
	if !errors.Is(err, remediate.ErrInterrupted) || errors.As(err, &h) {
		t.Fatalf("a closed console while waiting for the edit: %v, want ErrInterrupted and no halt", err)
	}
	if _, rerr := job.Run.Read(remediate.Phase(1) + "-00-edit-files.json"); rerr != nil {
		t.Fatalf("edit-files is not reserved: %v", rerr)
	}
	nothingPushed(w, pushes0)

	// The human edits, then closes the console on the diff screen.
	job = w.Job(nil)
	job.WaitForHandEdit = editByHand
	job.ConfirmDiff = func(context.Context, []byte) error { return closed }
	if _, err = run(job); !errors.Is(err, remediate.ErrInterrupted) || errors.As(err, &h) {
		t.Fatalf("a closed console on the diff: %v", err)
	}
	nothingPushed(w, pushes0)

	// Reopened: the edit is not asked again, the diff is, and the round runs.
	job = w.Job(nil)
	job.WaitForHandEdit = editByHand
	var shown []byte
	job.ConfirmDiff = func(_ context.Context, d []byte) error { shown = d; return nil }
	res, err := run(job)
	if err != nil {
		t.Fatal(err)
	}
	if edits != 1 || !strings.Contains(string(shown), "+// fixed by hand") || res.CommitSHA == "" {
		t.Fatalf("edits %d, diff %q, result %+v", edits, shown, res)
	}
}
