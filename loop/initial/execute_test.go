package initial_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
)

func TestApplyEndToEnd(t *testing.T) {
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
