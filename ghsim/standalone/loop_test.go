package standalone_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/fixer"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/simenv"
)

func codexThreads(st ghsim.State) []ghsim.StateThread {
	var out []ghsim.StateThread
	for _, th := range st.Threads {
		if th.RootAuthor == ghsim.CodexBotLogin {
			out = append(out, th)
		}
	}
	return out
}

// A loop's worth of rounds on the standalone world, driven by the scenario
// list: findings on real lines, a scripted fix, commit and push (CI goes
// pending → success on the new head), findings again with new threads, a
// clean round shown only by 👍, and after the list an explicit clean
// comment. The env's clock variable reads the simulator's time.
func TestScenarioListDrivesALoop(t *testing.T) {
	ctx := context.Background()
	clock := ghsim.NewManualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	sim, err := standalone.Start(ctx, standalone.Options{
		Dir: t.TempDir(), Clock: clock.Now, BotDelay: 10 * time.Second,
		Scenarios: []ghsim.ScenarioKind{ghsim.Findings, ghsim.Findings, ghsim.CleanByReaction},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	info := sim.Info()
	hook, err := simenv.FromEnv(func(k string) string { return info.Env[k] })
	if err != nil || hook == nil || hook.ClockURL != info.APIURL+ghsim.ClockPath {
		t.Fatalf("hook %+v: %v", hook, err)
	}
	clock.Advance(42 * time.Minute)
	if now, err := hook.Now(ctx); err != nil || !now.Equal(clock.Now()) {
		t.Fatalf("hook.Now = %s, %v; simulator %s", now, err, clock.Now())
	}

	b := sim.Bed
	pr, err := b.OpenPR("Add a retry budget", "")
	if err != nil {
		t.Fatal(err)
	}
	request := func() ghsim.Comment {
		t.Helper()
		c := pr.PostComment(ghsim.Comment{Body: "@codex review\n\n<!-- marker -->"})
		clock.Advance(time.Minute) // four bot steps, 10s apart
		return c
	}

	request()
	st, _ := getState(t, info.APIURL)
	round1 := codexThreads(st)
	want := testbed.RoundFindings(0)
	if len(st.Reviews) != 1 || len(round1) != len(want) {
		t.Fatalf("round 1: %d reviews, threads %+v", len(st.Reviews), round1)
	}
	for i, th := range round1 {
		if th.Path != want[i].Path || th.Line != want[i].Line {
			t.Fatalf("round 1 thread %d at %s:%d, want %s:%d", i, th.Path, th.Line, want[i].Path, want[i].Line)
		}
	}

	// The fix: the scripted fixer on those threads, committed and pushed.
	var threads []fixer.Thread
	for i, th := range round1 {
		line := th.Line
		threads = append(threads, fixer.Thread{ThreadID: th.ID, Path: th.Path, Line: &line, Title: want[i].Title, Body: want[i].Body})
	}
	if _, err := fixer.ApplyScripted(b.Checkout, threads); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "Fix round 1"}} {
		if _, err := b.Setup(b.Checkout, args...); err != nil {
			t.Fatal(err)
		}
	}
	head, err := b.Setup(b.Checkout, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Runner.Run(ctx, b.Checkout, "push", "-q", testbed.RemoteName, "HEAD:refs/heads/"+testbed.HeadBranch); err != nil {
		t.Fatal(err)
	}
	b.Repo.SetBranch(testbed.HeadBranch, head) // the push hook may still be syncing
	st, _ = getState(t, info.APIURL)
	var run *ghsim.StateCheckRun
	for i := range st.CheckRuns {
		if st.CheckRuns[i].HeadSHA == head {
			run = &st.CheckRuns[i]
		}
	}
	if run == nil || run.Status == "completed" || st.Pulls[0].HeadSHA != head || st.Pulls[0].Mergeable != "UNKNOWN" {
		t.Fatalf("after the push: run %+v pull %+v", run, st.Pulls[0])
	}
	clock.Advance(3 * time.Minute)
	st, _ = getState(t, info.APIURL)
	for _, cr := range st.CheckRuns {
		if cr.HeadSHA == head && (cr.Status != "completed" || cr.Conclusion != "success") {
			t.Fatalf("check after its delay: %+v", cr)
		}
	}
	if p := st.Pulls[0]; p.Mergeable != "MERGEABLE" || p.MergeStateStatus != "CLEAN" {
		t.Fatalf("gates after CI: %+v", p)
	}

	request()
	st, _ = getState(t, info.APIURL)
	all := codexThreads(st)
	if len(st.Reviews) != 2 || len(all) != len(round1)+len(testbed.RoundFindings(1)) {
		t.Fatalf("round 2: %d reviews, %d threads", len(st.Reviews), len(all))
	}
	seen := map[string]bool{}
	for _, th := range round1 {
		seen[th.Path+":"+strconv.Itoa(th.Line)] = true
	}
	for _, th := range all[len(round1):] {
		if seen[th.Path+":"+strconv.Itoa(th.Line)] {
			t.Fatalf("round 2 reuses a round-1 position: %+v", th)
		}
	}

	third := request()
	st, _ = getState(t, info.APIURL)
	thumbs := false
	for _, r := range st.Reactions {
		if r.Comment == third.ID && r.Content == "+1" && r.User == ghsim.CodexBotLogin {
			thumbs = true
		}
	}
	if !thumbs || len(st.Reviews) != 2 {
		t.Fatalf("round 3 (clean-by-reaction): thumbs %v, %d reviews", thumbs, len(st.Reviews))
	}

	request() // the list is used up: an explicit clean comment
	st, _ = getState(t, info.APIURL)
	last := st.IssueComments[len(st.IssueComments)-1]
	if last.Author != ghsim.CodexBotLogin || !strings.Contains(last.Body, "Didn't find any major issues") {
		t.Fatalf("after the list: %+v", last)
	}
}

// Script gives findings kinds the bed's findings of their own findings
// round, in order, and every step the delay.
func TestScriptNumbersTheFindingsRounds(t *testing.T) {
	kinds := []ghsim.ScenarioKind{ghsim.Findings, ghsim.ZeroFindings, ghsim.FindingsComment, ghsim.Findings, ghsim.Silent}
	sc := standalone.Script(kinds, 7*time.Second)
	wantRound := map[int]int{0: 0, 2: 1, 3: 2}
	for i, s := range sc {
		if s.Kind != kinds[i] || s.StepDelay != 7*time.Second {
			t.Fatalf("%d: %+v", i, s)
		}
		r, findings := wantRound[i]
		if !findings {
			if s.Findings != nil {
				t.Fatalf("%d: %s has findings", i, s.Kind)
			}
			continue
		}
		if len(s.Findings) == 0 || s.Findings[0].Title != testbed.RoundFindings(r)[0].Title {
			t.Fatalf("%d: findings %+v, want round %d", i, s.Findings, r)
		}
	}
}
