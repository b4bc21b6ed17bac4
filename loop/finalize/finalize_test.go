package finalize_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/internal/looptest"
)

// fixture: round 0 found findings, round 1 fixed them and Codex answered
// round 1 with zero findings; the PR was turned into a draft meanwhile.
type fixture struct {
	w       *looptest.World
	reg     *automations.Registry
	round1  looptest.Round
	events  []finalize.Event
	records []finalize.Finalized
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	w := looptest.New(t)
	w.Bed.Sim.QueueCodexScenarios(ghsim.Scenario{Kind: ghsim.ZeroFindings})
	res, err := w.Execute(nil, w.FixerScript(w.Paths()...))
	if err != nil {
		t.Fatalf("remediation: %v", err)
	}
	if w.Bed.Sim.Settle() == 0 {
		t.Fatal("Codex did not answer round 1")
	}
	var m schema.RemediationManifest
	if err := json.Unmarshal(w.Manifest, &m); err != nil {
		t.Fatal(err)
	}
	pr, _ := w.Bed.Repo.PR(int(w.Init.PRNumber))
	pr.Update(func(p *ghsim.PullRequest) { p.Draft = true })
	reg, err := automations.Open(w.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{w: w, reg: reg, round1: looptest.Round{CommentID: res.RequestCommentID, Head: res.CommitSHA, FixRounds: 1,
		Completed: []string{m.RequestKey}, Answered: m.ActionableThreads}}
}

func (f *fixture) deps(fault func(string) bool) finalize.Deps {
	return finalize.Deps{GitHub: f.w.Bed.Client, Registry: f.reg, Fault: fault}
}

// execute runs the first plan (built from a fresh observation) under the
// run lock, as the wakeup does.
func (f *fixture) execute(fault func(string) bool, m []byte, hash string, st []byte) (*finalize.Result, error) {
	run := f.w.Run()
	unlock, err := run.Lock(context.Background())
	if err != nil {
		f.w.T.Fatal(err)
	}
	defer unlock()
	return finalize.Execute(context.Background(), f.deps(fault), finalize.Job{Run: run, Manifest: m, PlanHash: hash, State: st,
		Revalidate: func(context.Context) (string, error) { return hash, nil }, Events: func(e finalize.Event) { f.events = append(f.events, e) }})
}

func (f *fixture) finish(fault func(string) bool, m []byte, hash string, st []byte) (*finalize.Result, error) {
	run := f.w.Run()
	unlock, err := run.Lock(context.Background())
	if err != nil {
		f.w.T.Fatal(err)
	}
	defer unlock()
	return finalize.Finish(context.Background(), f.deps(fault), finalize.FinishJob{Run: run, Manifest: m, PlanHash: hash, State: st,
		Revalidate: func(context.Context) (string, error) { return hash, nil },
		Finalized: func(_ context.Context, fz finalize.Finalized) error {
			if n := len(f.records); n > 0 && f.records[n-1] == fz {
				return nil
			}
			f.records = append(f.records, fz)
			return nil
		}})
}

// postMutation is the fresh post-mutation plan: the claimed request is
// preserved as completed, and core must see only delete-owned-automation.
func (f *fixture) postMutation() ([]byte, string, []byte) {
	r := f.round1
	r.Completed = append(append([]string{}, r.Completed...), policy.RequestKey(r.CommentID, r.Head))
	st := f.w.ObserveState(r)
	return f.w.Finalization(st, evaluate.ActionFinishFinalization)
}

// threadsResolved counts the Codex threads GitHub reports resolved.
func (f *fixture) threadsResolved() (resolved, total int) {
	obs, _, err := f.w.Bed.Client.ObservePR(context.Background(), f.w.Repo, f.w.Init.PRNumber)
	if err != nil {
		f.w.T.Fatal(err)
	}
	for _, t := range obs.Threads {
		total++
		if t.IsResolved {
			resolved++
		}
	}
	return resolved, total
}

func (f *fixture) checkEnd(res *finalize.Result) {
	t := f.w.T
	t.Helper()
	pr, _ := f.w.Bed.Repo.PR(int(f.w.Init.PRNumber))
	if pr.Data().Draft {
		t.Fatal("the PR is still a draft")
	}
	if r, n := f.threadsResolved(); r != n || n == 0 {
		t.Fatalf("%d of %d threads resolved", r, n)
	}
	if _, ok, _ := f.reg.Get(context.Background(), f.w.Init.AutomationKey); ok {
		t.Fatal("the automation is still in the registry")
	}
	if len(f.records) != 1 || f.records[0].At == "" || f.records[0].At != res.FinalizedAt || res.Report == nil || f.records[0].Report != *res.Report {
		t.Fatalf("finalized records %+v, result %+v", f.records, res)
	}
}

func TestFinalizationEndToEnd(t *testing.T) {
	f := newFixture(t)
	st := f.w.ObserveState(f.round1)
	if len(st.EligibleCodexThreads) == 0 || !st.PR.IsDraft {
		t.Fatalf("fixture: %d eligible threads, draft %v", len(st.EligibleCodexThreads), st.PR.IsDraft)
	}
	m, hash, stb := f.w.Finalization(st, evaluate.ActionExecuteFinalization)
	res, err := f.execute(nil, m, hash, stb)
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	if !res.MarkedReady || res.Resolved != len(st.EligibleCodexThreads) {
		t.Fatalf("result %+v", res)
	}
	// The first plan never deletes: the automation is still there.
	if _, ok, _ := f.reg.Get(context.Background(), f.w.Init.AutomationKey); !ok {
		t.Fatal("the first finalization plan deleted the automation")
	}
	m2, hash2, st2 := f.postMutation()
	fin, err := f.finish(nil, m2, hash2, st2)
	if err != nil {
		t.Fatalf("finish: %v", err)
	}
	f.checkEnd(fin)
	// Finish again (a resumed wakeup) records the same values once more.
	again, err := f.finish(nil, m2, hash2, st2)
	if err != nil || again.FinalizedAt != fin.FinalizedAt {
		t.Fatalf("finish again: %v %+v", err, again)
	}
	f.checkEnd(fin)
}

// Every finalization side effect is interrupted before and after, then
// the plan runs again: the PR is marked ready once, each thread resolved
// once, the automation deleted once, finalized_at recorded once.
func TestCrashBeforeAndAfterEveryFinalizationSideEffect(t *testing.T) {
	points := []string{"mark-draft-ready", "resolve-codex-threads/1", "resolve-codex-threads/2", "delete-owned-automation"}
	for _, p := range points {
		for _, when := range []string{"before:", "after:"} {
			point := when + p
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				st := f.w.ObserveState(f.round1)
				m, hash, stb := f.w.Finalization(st, evaluate.ActionExecuteFinalization)
				hit := false
				fault := func(q string) bool {
					if q == point {
						hit = true
						return true
					}
					return false
				}
				_, err := f.execute(fault, m, hash, stb)
				if p != policy.OpDeleteAutomation {
					if !hit || !errors.Is(err, finalize.ErrCrashed) {
						t.Fatalf("first run: %v (hit %v)", err, hit)
					}
					if _, err := f.execute(nil, m, hash, stb); err != nil {
						t.Fatalf("resumed run: %v", err)
					}
				} else if err != nil {
					t.Fatal(err)
				}
				m2, hash2, st2 := f.postMutation()
				_, err = f.finish(fault, m2, hash2, st2)
				if p == policy.OpDeleteAutomation {
					if !hit || !errors.Is(err, finalize.ErrCrashed) {
						t.Fatalf("first finish: %v (hit %v)", err, hit)
					}
					if len(f.records) != 0 {
						t.Fatal("finalized_at was recorded before the deletion's receipt")
					}
				}
				fin, err := f.finish(nil, m2, hash2, st2)
				if err != nil {
					t.Fatalf("resumed finish: %v", err)
				}
				f.checkEnd(fin)
			})
		}
	}
}

// Only the plan's eligible threads are resolved: a Codex thread that
// appears after the plan was made stays open for the next wakeup.
func TestOnlyEligibleThreadsAreResolved(t *testing.T) {
	f := newFixture(t)
	st := f.w.ObserveState(f.round1)
	m, hash, stb := f.w.Finalization(st, evaluate.ActionExecuteFinalization)
	pr, _ := f.w.Bed.Repo.PR(int(f.w.Init.PRNumber))
	late, err := pr.AddThread(ghsim.ThreadSpec{Root: ghsim.ReviewComment{Author: ghsim.CodexBot(), Body: "**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>  A late finding**\n\nStill wrong.",
		Path: "internal/retry/budget.go", Line: 1, OriginalLine: 1, Side: "RIGHT"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.execute(nil, m, hash, stb)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resolved != len(st.EligibleCodexThreads) {
		t.Fatalf("resolved %d, want %d", res.Resolved, len(st.EligibleCodexThreads))
	}
	resolved, total := f.threadsResolved()
	if resolved != total-1 {
		t.Fatalf("%d of %d threads resolved, want all but the late one", resolved, total)
	}
	for _, th := range pr.Threads() {
		if th.NodeID == late.NodeID && th.Resolved {
			t.Fatal("the late thread was resolved")
		}
	}
}
