package initial_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/planner"
)

func TestApplyEndToEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.approve()
	res, err := w.execute(nil)
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	w.checkEndState(res)
	var started, finished int
	for _, e := range w.events {
		switch e.Event {
		case initial.EventStarted:
			started++
		case initial.EventFinished:
			finished++
		}
	}
	if n := len(w.plan.Doc.InitialManifest.Operations); started != n || finished != n {
		t.Fatalf("started %d finished %d, want %d each", started, finished, n)
	}
	// A second apply finds everything in the journal and does nothing.
	res2, err := w.execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	if res2.FinalHeadSHA != res.FinalHeadSHA || res2.PRURL != res.PRURL {
		t.Fatalf("second apply: %+v", res2)
	}
	w.checkEndState(res2)
}

func TestApplyCreatesBranchWhenAsked(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(in *planner.Inputs) { in.Head = "prloop/retry-budget" })
	w.approve()
	if ops := w.plan.Doc.InitialManifest.Operations; ops[1] != policy.OpCreateBranch {
		t.Fatalf("operations %v lack create-branch", ops)
	}
	res, err := w.execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	w.checkEndState(res)
}

// The commit's author is the repository's own user.name/user.email when
// both are set, else the GitHub account's login and noreply address; the
// committer is the same identity.
func TestCommitAuthor(t *testing.T) {
	t.Parallel()
	for _, repoIdentity := range []bool{false, true} {
		t.Run(map[bool]string{false: "GitHub noreply", true: "repository config"}[repoIdentity], func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			want := fmt.Sprintf("%s <%d+%s@users.noreply.github.com>", w.bed.Viewer.Login, w.bed.Viewer.ID, w.bed.Viewer.Login)
			if repoIdentity {
				for _, kv := range [][2]string{{"user.name", "Hubot Builder"}, {"user.email", "hubot@example.com"}} {
					if _, err := w.bed.Setup(w.bed.Checkout, "config", "--local", kv[0], kv[1]); err != nil {
						t.Fatal(err)
					}
				}
				want = "Hubot Builder <hubot@example.com>"
			}
			w.approve()
			res, err := w.execute(nil)
			if err != nil {
				t.Fatal(err)
			}
			got := w.bareGit("log", "-1", "--format=%an <%ae>|%cn <%ce>", res.FinalHeadSHA)
			if got != want+"|"+want {
				t.Fatalf("author|committer %q, want %q for both", got, want)
			}
		})
	}
}

// Stop (Ctrl+C) ends the run between two operations: the finished one is
// receipted, the next is not even reserved, and apply resumes from there.
func TestStopBetweenOperations(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.approve()
	run := w.run()
	a, _ := run.ReadApproval()
	in, _ := initial.ReadInputs(run)
	finished := 0
	d := initial.Deps{Git: w.bed.Runner, GitHub: w.bed.Client, Registry: initial.FromAutomations(w.reg),
		Events: func(e initial.Event) {
			if e.Event == initial.EventFinished {
				finished++
			}
		},
		Stop: func() bool { return finished >= 2 }}
	if _, err := initial.Execute(context.Background(), d, initial.Job{Run: run, Approval: a, Inputs: in}); !errors.Is(err, initial.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	j, _ := journal.New(run, initial.Phase, a.PlanHash, w.plan.Doc.InitialManifest.Operations, nil)
	entries, err := j.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !entries[0].Done() || !entries[1].Done() || entries[2] != nil {
		t.Fatalf("after the stop: %v %v %v", entries[0] != nil, entries[1] != nil, entries[2] != nil)
	}
	res, err := w.execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	w.checkEndState(res)
}

// An open PR from the head branch is reused: no second PR, the same PR
// moves to the final head and gets the request.
func TestApplyReusesAnOpenPR(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	if _, err := w.bed.OpenPR(title, body); err != nil {
		t.Fatal(err)
	}
	w.approve()
	ops := w.plan.Doc.InitialManifest.Operations
	if !slices.Contains(ops, policy.OpReusePR) || slices.Contains(ops, policy.OpCreatePR) {
		t.Fatalf("operations %v do not reuse the PR", ops)
	}
	res, err := w.execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	w.checkEndState(res)
}
