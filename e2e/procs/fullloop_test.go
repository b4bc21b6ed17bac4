package procs

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// fullWorld is the world `gh-prloop sim --scenario LIST --time-scale 30
// --bot-delay 20s --check-delay 20s` serves: the Codex bot answers the
// review requests with kinds in turn, CI passes 20 simulated seconds after
// each push (before the bot's three 20 s steps end, so every verdict is
// read with settled gates), simulated time 30× the wall clock.
func fullWorld(t *testing.T, kinds ...ghsim.ScenarioKind) *world {
	return fullWorldScaled(t, 30, kinds...)
}

// fullWorldScaled is fullWorld with simulated time scale× the wall clock.
func fullWorldScaled(t *testing.T, scale float64, kinds ...ghsim.ScenarioKind) *world {
	t.Helper()
	gates := standalone.DefaultGates()
	gates.CheckDelay = 20 * time.Second
	w := worldOn(t, standalone.Options{
		Dir: t.TempDir(), TimeScale: scale, BotDelay: 20 * time.Second, Gates: &gates, Scenarios: kinds,
	}, "")
	return w
}

// fullStep is one `wakeup --all --json` process of a single loop: its one
// outcome line and its exit status.
type fullStep struct {
	out  wakeup.Outcome
	code int
}

// fullDrive runs `wakeup --all --json` until no automation is ACTIVE (a
// bounded number of tries; the pause between them only lets simulated time
// pass, nothing is asserted about it). An exit 8 is handed to pending,
// which decides what the human does; nil fails the test.
func (w *world) fullDrive(pending func(wakeup.Outcome)) []fullStep {
	t := w.t
	t.Helper()
	var steps []fullStep
	for range 300 {
		active := 0
		for _, a := range w.automations() {
			if a.Status == automations.StatusActive {
				active++
			}
		}
		if active == 0 {
			return steps
		}
		r := w.gh(nil, "wakeup", "--all", "--json")
		outs := outcomes(t, r.stdout)
		if len(outs) != 1 {
			t.Fatalf("wakeup --all printed %d lines for one loop (exit %d)\n%s\n%s", len(outs), r.code, r.stdout, r.stderr)
		}
		steps = append(steps, fullStep{out: outs[0], code: r.code})
		switch {
		case r.code == 0:
		case r.code == wakeup.ExitPending && pending != nil:
			pending(outs[0])
		default:
			t.Fatalf("wakeup: exit %d\n%s\n%s\nso far: %+v", r.code, r.stdout, r.stderr, steps)
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("the loop is still ACTIVE after 300 wakeups: %+v", steps)
	return nil
}

// fullStart runs `gh-prloop start --mode autonomous` with the real
// binary's scripted fixer and returns the run id.
func (w *world) fullStart() string {
	w.t.Helper()
	r := w.gh(nil, "start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json",
		"--fixer", "'"+binary+"' sim fix")
	return startResult(w.t, r).RunID
}

// fullKey is the run's loop key, read from its checkpoint-to-be (the
// registry holds exactly the one automation while the loop runs).
func (w *world) fullKey() string {
	w.t.Helper()
	all := w.automations()
	if len(all) != 1 {
		w.t.Fatalf("automations: %+v", all)
	}
	return all[0].Key
}

// fullActions counts every action the steps did, in order.
//
// A wakeup that superseded its plan at re-validation (the world moved
// between the plan and its first side effect; Outcome.Superseded) lists
// only the replacement's execution: the attempt it replaced did nothing.
func fullActions(steps []fullStep) []string {
	var seq []string
	for _, s := range steps {
		seq = append(seq, s.out.Actions...)
	}
	return seq
}

func fullCount(seq []string, action string) int {
	n := 0
	for _, s := range seq {
		if s == action {
			n++
		}
	}
	return n
}

// fullCheckActions: the loop did plan-remediation and execute-remediation
// once per findings round, planned finalization, executed it once and
// finished once, and every step's action is the last of its actions, its
// exit what the action means (8 only for await-approval), and its done
// text says what was done. It returns the commits the two fix rounds
// reported, in order.
func fullCheckActions(t *testing.T, steps []fullStep, key string, gated bool) []string {
	t.Helper()
	var commits []string
	seq := fullActions(steps)
	t.Logf("actions: %v", seq)
	want := map[string]int{
		evaluate.ActionPlanRemediation: 2, evaluate.ActionExecuteRemediation: 2,
		evaluate.ActionExecuteFinalization: 1, evaluate.ActionFinishFinalization: 1,
	}
	for a, n := range want {
		if got := fullCount(seq, a); got != n {
			t.Errorf("%s done %d times, want %d: %v", a, got, n, seq)
			for i, s := range steps {
				t.Logf("step %d: exit %d actions %v superseded %q done %q error %q", i, s.code, s.out.Actions, s.out.Superseded, s.out.Done, s.out.Error)
			}
		}
	}
	if fullCount(seq, evaluate.ActionPlanFinalization) < 1 {
		t.Errorf("plan-finalization never done: %v", seq)
	}
	if gated != (fullCount(seq, evaluate.ActionAwaitApproval) > 0) {
		t.Errorf("await-approval seen %d times in mode gated=%v: %v", fullCount(seq, evaluate.ActionAwaitApproval), gated, seq)
	}
	order := []string{evaluate.ActionPlanRemediation, evaluate.ActionExecuteRemediation, evaluate.ActionPlanRemediation,
		evaluate.ActionExecuteRemediation, evaluate.ActionPlanFinalization, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization}
	if !containsInOrder(seq, order) {
		t.Errorf("actions %v lack %v in order", seq, order)
	}
	for i, s := range steps {
		o := s.out
		if len(o.Actions) == 0 || o.Actions[len(o.Actions)-1] != o.Action || o.Key != key || o.Error != "" || o.Exit != s.code {
			t.Errorf("step %d: %+v (exit %d)", i, o, s.code)
			continue
		}
		if slices.Contains(o.Actions, evaluate.ActionPlanRemediation) && !strings.Contains(o.Done, "stored the remediation plan "+o.PlanHash) {
			t.Errorf("step %d planned a remediation, done %q", i, o.Done)
		}
		if slices.Contains(o.Actions, evaluate.ActionPlanFinalization) && !strings.Contains(o.Done, "stored the finalization plan ") {
			t.Errorf("step %d planned a finalization, done %q", i, o.Done)
		}
		var done string
		code := 0
		switch o.Action {
		case evaluate.ActionWait:
			done = "nothing"
			if o.Reason != evaluate.ReasonAwaitingResponse {
				t.Errorf("step %d waits for %s", i, o.Reason)
			}
		case evaluate.ActionAwaitApproval:
			done, code = "waiting for approval: gh-prloop approve "+key+" --hash "+o.PlanHash, wakeup.ExitPending
		case evaluate.ActionExecuteRemediation:
			// "fix round n: commit SHA, k replies, request ID"; the SHA
			// is checked against the world by fullCheckEnd.
			done = fmt.Sprintf("fix round %d: commit ", len(commits)+1)
			if _, rest, ok := strings.Cut(o.Done, done); ok {
				sha, _, _ := strings.Cut(rest, ",")
				commits = append(commits, sha)
			}
		case evaluate.ActionExecuteFinalization:
			// The loop opened the PR ready for review (PROTOCOL §8), so
			// finalization finds it ready and resolves the threads.
			done = "finalization: the PR was already ready, resolved "
		case evaluate.ActionFinishFinalization:
			done = "deleted automation " + key
		default:
			t.Errorf("step %d: unexpected action %s in a clean loop: %+v", i, o.Action, o)
		}
		if s.code != code || !strings.Contains(o.Done, done) || o.Done == "" {
			t.Errorf("step %d: %s exit %d done %q, want exit %d and %q", i, o.Action, s.code, o.Done, code, done)
		}
		if o.Action != evaluate.ActionWait && o.PlanHash == "" {
			t.Errorf("step %d: %s names no plan hash", i, o.Action)
		}
	}
	return commits
}

// fullCheckEnd: from /_sim/state, the server's repository, the registry
// and the checkpoint — three pushes of the head (round 0 and two fixes),
// each fix one commit (the one its wakeup reported) with the Prloop-Run
// and its Prloop-Round trailer;
// one marked reply per Codex thread from the round that fixed it; one
// review request per round (0, 1, 2) naming the head it asks about; every
// thread resolved; the PR open and ready; the automation deleted; the
// checkpoint finalized with the merge-gate report read after CI passed.
func (w *world) fullCheckEnd(runID string, commits []string) {
	t := w.t
	t.Helper()
	st := loopSimState(t, w)
	if len(st.Pulls) != 1 {
		t.Fatalf("pulls: %+v", st.Pulls)
	}
	pr := st.Pulls[0]
	var heads []string // the head after round 0, after fix 1, after fix 2
	for _, p := range st.Pushes[w.seedPushes:] {
		if p.Ref == "refs/heads/"+pr.Head || p.Ref == pr.Head {
			heads = append(heads, p.New)
		} else {
			t.Errorf("a push to %s", p.Ref)
		}
	}
	if len(heads) != 3 {
		t.Fatalf("%d pushes to %s, want 3 (round 0 and two fixes): %+v", len(heads), pr.Head, st.Pushes)
	}
	if !slices.Equal(commits, heads[1:]) {
		t.Errorf("the fix rounds reported commits %v, the head was pushed to %v", commits, heads[1:])
	}
	if pr.HeadSHA != heads[2] || pr.Draft || pr.State != "open" {
		t.Errorf("pull request head %s draft %v state %s; last push %s", pr.HeadSHA, pr.Draft, pr.State, heads[2])
	}
	gitDir := w.sim.Bed.GitServer.RepoDir(testbed.Owner, testbed.Name)
	for round := 1; round <= 2; round++ {
		n, err := exec.Command("git", "--git-dir", gitDir, "rev-list", "--count", heads[round-1]+".."+heads[round]).Output()
		if err != nil || strings.TrimSpace(string(n)) != "1" {
			t.Errorf("fix %d pushed %q commits (%v), want 1", round, n, err)
		}
		msg, err := exec.Command("git", "--git-dir", gitDir, "log", "-1", "--format=%B", heads[round]).Output()
		if err != nil || !strings.Contains(string(msg), "Prloop-Run: "+runID) || !strings.Contains(string(msg), fmt.Sprintf("Prloop-Round: %d", round)) {
			t.Errorf("fix %d commit message %q (%v) lacks the trailers", round, msg, err)
		}
	}
	// Each Codex thread belongs to the round whose head its review read
	// (the review's commit; a comment's commit_id follows the head).
	reviewed := map[int64]string{}
	for _, r := range st.Reviews {
		reviewed[r.ID] = r.CommitID
	}
	roundOf := map[string]int{}
	for _, c := range st.ReviewComments {
		if c.Author == ghsim.CodexBotLogin && c.InReplyToID == 0 {
			roundOf[c.Thread] = slices.Index(heads, reviewed[c.ReviewID]) + 1
		}
	}
	perRound := map[int]int{}
	for _, th := range st.Threads {
		if th.RootAuthor != ghsim.CodexBotLogin {
			continue
		}
		round := roundOf[th.ID]
		perRound[round]++
		if !th.Resolved {
			t.Errorf("thread %s (%s:%d) not resolved", th.ID, th.Path, th.Line)
		}
		marker := fmt.Sprintf("<!-- github-codex-pr-loop-reply run=%s round=%d thread=%s -->", runID, round, th.ID)
		var mine []string
		for _, r := range th.Replies {
			if r.Author != ghsim.CodexBotLogin {
				mine = append(mine, r.Body)
			}
		}
		if len(mine) != 1 || !strings.Contains(mine[0], marker) {
			t.Errorf("thread %s (round %d) replies of the author %q, want one with %s", th.ID, round, mine, marker)
		}
	}
	if perRound[1] == 0 || perRound[2] == 0 || len(perRound) != 2 {
		t.Errorf("Codex threads per round %v, want round 1 and round 2 findings only", perRound)
	}
	for round, head := range heads {
		marker := policy.RequestMarker(runID, round, head)
		n := 0
		for _, c := range st.IssueComments {
			if c.Author != ghsim.CodexBotLogin && strings.Contains(c.Body, marker) {
				n++
				if !strings.Contains(c.Body, "@codex review") {
					t.Errorf("round %d request %q does not ask Codex", round, c.Body)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d review requests with %s, want 1", n, marker)
		}
	}
	requests := 0
	for _, c := range st.IssueComments {
		if c.Author != ghsim.CodexBotLogin && strings.Contains(c.Body, "@codex review") {
			requests++
		}
	}
	if requests != 3 {
		t.Errorf("%d review requests, want 3 (rounds 0, 1, 2)", requests)
	}
	if left := w.automations(); len(left) != 0 {
		t.Errorf("automations left after finish-finalization: %+v", left)
	}
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := checkpoint.Read(run)
	if err != nil {
		t.Fatal(err)
	}
	if c.FinalizedAt == nil || c.MergeGateReport == nil || c.FixRounds != 2 {
		t.Fatalf("checkpoint finalized_at %v report %v fix_rounds %d", c.FinalizedAt, c.MergeGateReport, c.FixRounds)
	}
	if g := c.MergeGateReport.Gates; g.Checks != "pass" || c.MergeGateReport.ReadAt == "" {
		t.Errorf("merge-gate report %+v, want checks pass", *c.MergeGateReport)
	}
}

// fullCheckDone: a wakeup of the finished loop's KEY (its automation is
// gone, its run is not) reports done from the checkpoint and exits 0, in
// --json and in plain words.
func (w *world) fullCheckDone(key string) {
	t := w.t
	t.Helper()
	r := w.gh(nil, "wakeup", key, "--json")
	outs := outcomes(t, r.stdout)
	if r.code != 0 || len(outs) != 1 {
		t.Fatalf("wakeup of the finished loop: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outs[0]
	if o.Action != evaluate.ActionDone || o.Reason != evaluate.ReasonFinalized || !slices.Equal(o.Actions, []string{evaluate.ActionDone}) ||
		!strings.HasPrefix(o.Message, "finalized at ") || o.Done != "nothing: the loop is finalized" || o.Exit != 0 {
		t.Fatalf("wakeup of the finished loop: %+v", o)
	}
	r = w.gh(nil, "wakeup", key)
	if r.code != 0 || !strings.Contains(r.stdout, key+": done (finalized)") || !strings.Contains(r.stdout, "finalized at ") {
		t.Fatalf("plain wakeup of the finished loop: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// --all wakes only ACTIVE automations: nothing.
	if r := w.gh(nil, "wakeup", "--all", "--json"); r.code != 0 || r.stdout != "" {
		t.Fatalf("wakeup --all after the loop: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// fullReport runs `gh-prloop report 1 --repo OWNER/NAME --json` on the
// loop's pull request (the checkout's remote is the simulator's, not a
// GitHub host, so the PR is named)
// and returns core's report-only verdict.
func (w *world) fullReport() evaluate.Result {
	w.t.Helper()
	r := w.gh(nil, "report", "1", "--repo", testbed.Owner+"/"+testbed.Name, "--json")
	if r.code != 0 {
		w.t.Fatalf("report --json: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		Result evaluate.Result `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		w.t.Fatalf("report --json: %v\n%s", err, r.stdout)
	}
	return doc.Result
}

// The whole autonomous loop with real processes: `start --mode autonomous
// --fixer 'gh-prloop sim fix'`, then `wakeup --all --json` until nothing is
// ACTIVE, on findings, findings, clean (an explicit clean comment). Then a
// wakeup of the finished KEY is done, and report-only reads the PR.
func TestFullAutonomousLoopTwoRounds(t *testing.T) {
	w := fullWorld(t, ghsim.Findings, ghsim.Findings, ghsim.ZeroFindings)
	runID := w.fullStart()
	key := w.fullKey()
	steps := w.fullDrive(nil)
	commits := fullCheckActions(t, steps, key, false)
	for i, s := range steps {
		if o := s.out; slices.Contains(o.Actions, evaluate.ActionPlanRemediation) &&
			!slices.Equal(o.Actions, []string{evaluate.ActionPlanRemediation, evaluate.ActionExecuteRemediation}) {
			t.Errorf("step %d: an autonomous plan is executed in the wakeup that stored it: %v", i, o.Actions)
		}
	}
	w.fullCheckEnd(runID, commits)
	w.fullCheckDone(key)
	if v := w.fullReport(); v.Action != evaluate.ActionReport || v.Classification != evaluate.ClassZeroFindings {
		t.Fatalf("report-only on the finished PR: %+v", v)
	}
	// Merging the finished PR is what the loop was for: still done, no halt.
	pr, _ := w.sim.Bed.Repo.PR(1)
	pr.Update(func(p *ghsim.PullRequest) { p.State, p.Merged = "closed", true })
	w.fullCheckDone(key)
}

// The approval-gated loop with real processes: the initial plan approved
// (recorded as the console does) and `apply`, then on findings, findings,
// clean-by-reaction (👍 and a Completed summary only) every loop plan stops
// a wakeup with exit 8 and its hash. While it waits, another wakeup prints
// the approve command and does nothing; `approve --hash` with a wrong hash
// is refused with exit 1; with the right one the next wakeup executes
// exactly that plan.
func TestFullApprovalGatedLoopTwoRounds(t *testing.T) {
	w := fullWorld(t, ghsim.Findings, ghsim.Findings, ghsim.CleanByReaction)
	runID := w.approve()
	if r := w.gh(nil, "apply", runID); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	w.setFixer(runID)
	key := w.fullKey()
	approved := map[string]bool{}
	steps := w.fullDrive(func(o wakeup.Outcome) {
		before := loopSimState(t, w)
		// Unapproved, a plan stays a plan: the plain wakeup prints how
		// to approve it, exits 8 and changes nothing.
		r := w.gh(nil, "wakeup", key)
		cmdLine := "gh-prloop approve " + key + " --hash " + o.PlanHash
		if r.code != wakeup.ExitPending || !strings.Contains(r.stdout, cmdLine) || !strings.Contains(r.stdout, "await-approval") {
			t.Fatalf("a second wakeup of the unapproved plan: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		after := loopSimState(t, w)
		if len(after.Pushes) != len(before.Pushes) || after.Pulls[0].Draft != before.Pulls[0].Draft || fullResolved(after) != fullResolved(before) {
			t.Fatalf("an unapproved plan changed the world: pushes %d → %d, resolved %d → %d",
				len(before.Pushes), len(after.Pushes), fullResolved(before), fullResolved(after))
		}
		wrong := "0" + o.PlanHash[1:]
		if o.PlanHash[0] == '0' {
			wrong = "1" + o.PlanHash[1:]
		}
		if r := w.gh(nil, "approve", "--hash", wrong); r.code != 1 || !strings.Contains(r.stderr, wrong) {
			t.Fatalf("approve with a wrong hash: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if r := w.gh(nil, "approve", "--hash", o.PlanHash); r.code != 0 || !strings.Contains(r.stdout, "approved the ") {
			t.Fatalf("approve --hash %s: exit %d\n%s\n%s", o.PlanHash, r.code, r.stdout, r.stderr)
		}
		approved[o.PlanHash] = true
	})
	commits := fullCheckActions(t, steps, key, true)
	// Nothing runs unapproved: every execute-remediation and
	// execute-finalization runs the plan the exit-8 wakeup right before it
	// showed (and that was approved then); finish-finalization's
	// post-mutation plan needs no approval.
	pendings := 0
	for i, s := range steps {
		o := s.out
		if s.code == wakeup.ExitPending {
			pendings++
		}
		if o.Action != evaluate.ActionExecuteRemediation && o.Action != evaluate.ActionExecuteFinalization {
			continue
		}
		if o.Reason != evaluate.ReasonApproved || !approved[o.PlanHash] || i == 0 ||
			steps[i-1].code != wakeup.ExitPending || steps[i-1].out.PlanHash != o.PlanHash {
			t.Errorf("step %d executed %s plan %s (reason %s) without the approval of the wakeup before it: %+v", i, o.Action, o.PlanHash, o.Reason, steps[max(i-1, 0)].out)
		}
	}
	if pendings != 3 || len(approved) != 3 {
		t.Errorf("%d plans awaited approval and %d were approved, want 3 (two remediations, one finalization)", pendings, len(approved))
	}
	w.fullCheckEnd(runID, commits)
	w.fullCheckDone(key)
}

func fullResolved(st ghsim.State) int {
	n := 0
	for _, th := range st.Threads {
		if th.Resolved {
			n++
		}
	}
	return n
}

// The actions a two-round loop never needs, each with real processes on
// one world whose Codex never answers (in real time, so that the request
// never times out first): wait (awaiting-response, before
// Codex answers), report (report-only on the same PR) and a halt (the PR
// closed: the automation paused with the reason, exit 1, and --all leaves
// it alone afterwards).
func TestFullWaitReportHalt(t *testing.T) {
	// Real time: the request's 30-minute deadline never passes here.
	w := fullWorldScaled(t, 1, ghsim.Silent)
	w.fullStart()
	key := w.fullKey()
	r := w.gh(nil, "wakeup", key, "--json")
	outs := outcomes(t, r.stdout)
	if r.code != 0 || len(outs) != 1 {
		t.Fatalf("wakeup: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if o := outs[0]; o.Action != evaluate.ActionWait || o.Reason != evaluate.ReasonAwaitingResponse || o.Done != "nothing" ||
		!slices.Equal(o.Actions, []string{evaluate.ActionWait}) || o.Exit != 0 || o.PlanHash != "" {
		t.Fatalf("wakeup before Codex answers: %+v", o)
	}
	if v := w.fullReport(); v.Action != evaluate.ActionReport || v.Classification != evaluate.ClassAwaitingResponse {
		t.Fatalf("report-only while Codex has not answered: %+v", v)
	}
	pr, ok := w.sim.Bed.Repo.PR(1)
	if !ok {
		t.Fatal("no pull request")
	}
	pr.Update(func(p *ghsim.PullRequest) { p.State = "closed" })
	r = w.gh(nil, "wakeup", "--all", "--json")
	outs = outcomes(t, r.stdout)
	if r.code != 1 || len(outs) != 1 {
		t.Fatalf("wakeup of the closed PR: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if o := outs[0]; o.Action != evaluate.ActionHalt || o.Reason != evaluate.ReasonPRClosed || o.Exit != 1 ||
		!slices.Equal(o.Actions, []string{evaluate.ActionHalt}) || o.Done != "paused the automation: "+evaluate.ReasonPRClosed {
		t.Fatalf("wakeup of the closed PR: %+v", o)
	}
	all := w.automations()
	if len(all) != 1 || all[0].Status != automations.StatusPaused || !strings.Contains(all[0].Reason, evaluate.ReasonPRClosed) {
		t.Fatalf("automation after the halt: %+v", all)
	}
	if r := w.gh(nil, "wakeup", "--all", "--json"); r.code != 0 || r.stdout != "" {
		t.Fatalf("wakeup --all after the halt: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
