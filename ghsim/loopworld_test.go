package ghsim

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// state reads GET /_sim/state the way an outside script does.
func (f *fixture) state() State {
	f.t.Helper()
	r := f.do("GET", StatePath, nil)
	if r.status != 200 {
		f.t.Fatalf("GET %s: %d %s", StatePath, r.status, r.body)
	}
	var st State
	if err := json.Unmarshal(r.body, &st); err != nil {
		f.t.Fatalf("%v: %s", err, r.body)
	}
	return st
}

func (f *fixture) gates() (mergeable, mergeState, decision string) {
	f.t.Helper()
	doc := f.graphql(`{ repository(owner: "acme", name: "app") { pullRequest(number: 7) { mergeable mergeStateStatus reviewDecision } } }`, nil)
	pr := dig(f.t, doc, "data", "repository", "pullRequest").(map[string]any)
	d, _ := pr["reviewDecision"].(string)
	return pr["mergeable"].(string), pr["mergeStateStatus"].(string), d
}

func checkRunsFor(st State, sha string) []StateCheckRun {
	var out []StateCheckRun
	for _, cr := range st.CheckRuns {
		if cr.HeadSHA == sha {
			out = append(out, cr)
		}
	}
	return out
}

// After a push, a scripted PR's gates move as GitHub's do: a check run
// queued on the new head, then in progress, then completed; mergeability
// UNKNOWN until computed; the merge state BLOCKED while the check runs or a
// review is required, CLEAN once both are satisfied. GraphQL and
// /_sim/state agree at every step, and the times are the simulated clock's.
func TestGateScriptMovesTheGatesAfterAPush(t *testing.T) {
	f := newFixture(t)
	f.s.SetGateScript(GateScript{CheckName: "ci / test", CheckDelay: 2 * time.Minute, MergeableDelay: 5 * time.Second,
		ReviewDecision: "REVIEW_REQUIRED", ApproveAfter: 10 * time.Minute})
	if m, ms, _ := f.gates(); m != "MERGEABLE" || ms != "CLEAN" {
		t.Fatalf("before any push the seeded gates stay: %s %s", m, ms)
	}
	pushedAt := f.clock.Now()
	f.repo.SetBranch("topic", shaC)

	st := f.state()
	runs := checkRunsFor(st, shaC)
	if len(runs) != 1 || runs[0].Status != "queued" || runs[0].Name != "ci / test" || *runs[0].StartedAt != pushedAt.Format(time.RFC3339) {
		t.Fatalf("right after the push: %+v", runs)
	}
	if m, ms, d := f.gates(); m != "UNKNOWN" || ms != "UNKNOWN" || d != "REVIEW_REQUIRED" {
		t.Fatalf("right after the push: %s %s %s", m, ms, d)
	}

	f.clock.Advance(15 * time.Second)
	if runs := checkRunsFor(f.state(), shaC); runs[0].Status != "in_progress" {
		t.Fatalf("after 15s: %+v", runs)
	}
	if m, ms, _ := f.gates(); m != "MERGEABLE" || ms != "BLOCKED" {
		t.Fatalf("after 15s: %s %s", m, ms)
	}

	f.clock.Advance(2 * time.Minute)
	runs = checkRunsFor(f.state(), shaC)
	if runs[0].Status != "completed" || runs[0].Conclusion != "success" || *runs[0].CompletedAt != pushedAt.Add(2*time.Minute).Format(time.RFC3339) {
		t.Fatalf("after the check delay: %+v", runs)
	}
	if _, ms, _ := f.gates(); ms != "BLOCKED" {
		t.Fatalf("a required review still blocks: %s", ms)
	}

	f.clock.Advance(10 * time.Minute)
	st = f.state()
	if m, ms, d := f.gates(); m != "MERGEABLE" || ms != "CLEAN" || d != "APPROVED" {
		t.Fatalf("after the approval: %s %s %s", m, ms, d)
	}
	if p := st.Pulls[0]; p.Mergeable != "MERGEABLE" || p.MergeStateStatus != "CLEAN" || p.ReviewDecision != "APPROVED" {
		t.Fatalf("state pull gates: %+v", p)
	}

	// The next push starts over for its head; the old head's run stays.
	f.repo.SetBranch("topic", shaA)
	if m, ms, _ := f.gates(); m != "UNKNOWN" || ms != "UNKNOWN" {
		t.Fatalf("second push: %s %s", m, ms)
	}
	st = f.state()
	if len(checkRunsFor(st, shaA)) != 1 || len(checkRunsFor(st, shaC)) != 1 {
		t.Fatalf("check runs: %+v", st.CheckRuns)
	}
}

// A failing script leaves the merge state UNSTABLE, a draft stays DRAFT
// until markPullRequestReadyForReview, which recomputes the state.
func TestGateScriptFailureAndDraft(t *testing.T) {
	f := newFixture(t)
	f.s.SetGateScript(GateScript{CheckDelay: time.Minute, Conclusion: "failure"})
	f.pr.Update(func(p *PullRequest) { p.Draft = true })
	f.repo.SetBranch("topic", shaC)
	f.clock.Advance(2 * time.Minute)
	if _, ms, _ := f.gates(); ms != "DRAFT" {
		t.Fatalf("draft: %s", ms)
	}
	doc := f.graphql(`mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft mergeStateStatus } } }`,
		map[string]any{"id": f.pr.Data().NodeID})
	if dig(t, doc, "data", "markPullRequestReadyForReview", "pullRequest", "mergeStateStatus") != "UNSTABLE" {
		t.Fatalf("ready for review with a failed check: %v", doc)
	}
	if st := f.state(); st.Pulls[0].Draft || st.Pulls[0].MergeStateStatus != "UNSTABLE" {
		t.Fatalf("state: %+v", st.Pulls[0])
	}
}

// Without a script nothing moves by itself (the seeded world of the other
// tests is untouched).
func TestNoGateScriptNoCheckRuns(t *testing.T) {
	f := newFixture(t)
	f.repo.SetBranch("topic", shaC)
	f.clock.Advance(time.Hour)
	if st := f.state(); len(st.CheckRuns) != 0 || st.Pulls[0].MergeStateStatus != "CLEAN" {
		t.Fatalf("state: %+v %+v", st.CheckRuns, st.Pulls[0])
	}
	if f.s.PendingTimers() != 0 {
		t.Fatal("timers scheduled without a script")
	}
}

// Replies (GraphQL addPullRequestReviewThreadReply, which ghclient's
// ReplyToThread uses, and REST .../comments/{id}/replies) and resolution
// are visible in /_sim/state's threads.
func TestStateShowsThreadRepliesAndResolution(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Silent})
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: "finding", Path: "a.go", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	st := f.state()
	if len(st.Threads) != 1 || len(st.Threads[0].Replies) != 0 || st.Threads[0].Resolved || st.Threads[0].RootAuthor != CodexBotLogin {
		t.Fatalf("seeded thread: %+v", st.Threads)
	}
	f.clock.Advance(time.Minute)
	f.graphql(`mutation($t: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $t, body: "Fixed in abc"}) { comment { id } } }`,
		map[string]any{"t": th.NodeID})
	f.clock.Advance(time.Minute)
	r := f.do("POST", fmt.Sprintf("/repos/acme/app/pulls/7/comments/%d/replies", th.Comments[0].ID), map[string]any{"body": "And a REST reply"})
	if r.status != 201 {
		t.Fatalf("REST reply: %d %s", r.status, r.body)
	}
	f.graphql(`mutation($t: ID!) { resolveReviewThread(input: {threadId: $t}) { thread { isResolved } } }`, map[string]any{"t": th.NodeID})

	st = f.state()
	got := st.Threads[0]
	if !got.Resolved || len(got.Replies) != 2 || len(got.Comments) != 3 {
		t.Fatalf("thread: %+v", got)
	}
	want := []struct{ body, at string }{
		{"Fixed in abc", testStart.Add(time.Minute).Format(time.RFC3339)},
		{"And a REST reply", testStart.Add(2 * time.Minute).Format(time.RFC3339)},
	}
	for i, w := range want {
		rp := got.Replies[i]
		if rp.Body != w.body || rp.Author != "monalisa" || *rp.CreatedAt != w.at {
			t.Errorf("reply %d = %+v, want %q at %s", i, rp, w.body, w.at)
		}
	}
}

// /_sim/clock and the state's now report the simulator's clock, cost no
// request and need no token; only GET is allowed.
func TestClockEndpointReportsSimulatedTime(t *testing.T) {
	f := newFixture(t)
	f.s.ResetStats()
	for _, d := range []time.Duration{0, 90 * time.Minute} {
		f.clock.Advance(d)
		r := doRequest(t, f.s.URL(), "GET", ClockPath, nil)
		var c ClockResponse
		if r.status != 200 || json.Unmarshal(r.body, &c) != nil || c.Now != f.clock.Now().Format(time.RFC3339) {
			t.Fatalf("clock after %s: %d %s", d, r.status, r.body)
		}
		if st := f.state(); st.Now != c.Now {
			t.Fatalf("state now %s, clock %s", st.Now, c.Now)
		}
	}
	if r := doRequest(t, f.s.URL(), "POST", ClockPath, map[string]any{}); r.status != 405 {
		t.Fatalf("POST clock: %d", r.status)
	}
	if st := f.s.Stats(); st.REST+st.GraphQL != 0 {
		t.Fatalf("the clock and state were counted: %+v", st)
	}
}

// A ScaledClock runs scale simulated seconds per real second from its start.
func TestScaledClock(t *testing.T) {
	var mu sync.Mutex
	real := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	realNow := func() time.Time { mu.Lock(); defer mu.Unlock(); return real }
	c, err := NewScaledClock(testStart, 60, realNow)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Now().Equal(testStart) {
		t.Fatalf("start: %s", c.Now())
	}
	mu.Lock()
	real = real.Add(1500 * time.Millisecond)
	mu.Unlock()
	if want := testStart.Add(90 * time.Second); !c.Now().Equal(want) {
		t.Fatalf("after 1.5s real: %s, want %s", c.Now(), want)
	}
	if d := c.RealDuration(30 * time.Minute); d != 30*time.Second {
		t.Fatalf("30m simulated = %s real", d)
	}
	for _, bad := range []float64{0, -1, MaxTimeScale + 1} {
		if _, err := NewScaledClock(testStart, bad, nil); err == nil {
			t.Errorf("scale %v accepted", bad)
		}
	}
}

// Under a scaled clock every timestamp the bot writes is simulated time:
// its steps land bot-delay apart on the simulated clock.
func TestBotTimestampsFollowTheScaledClock(t *testing.T) {
	var mu sync.Mutex
	real := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	realNow := func() time.Time { mu.Lock(); defer mu.Unlock(); return real }
	clock, err := NewScaledClock(testStart, 600, realNow)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Clock: clock.Now})
	s.Start()
	t.Cleanup(s.Close)
	repo := s.AddRepo(RepoSpec{Owner: Account{Login: "acme", Type: TypeOrganization}, Name: "app"})
	repo.SetBranch("main", shaA)
	repo.SetBranch("topic", shaB)
	pr, err := repo.AddPR(PullRequest{Number: 7, Title: "T", Head: "topic", Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	s.SetCodexScenario(Scenario{Kind: Findings, StepDelay: 20 * time.Second})
	req := pr.PostComment(Comment{Body: "@codex review"})
	mu.Lock()
	real = real.Add(time.Second) // 600 simulated seconds
	mu.Unlock()
	st := s.Snapshot()
	if st.Now != testStart.Add(10*time.Minute).Format(time.RFC3339) {
		t.Fatalf("now = %s", st.Now)
	}
	if len(st.Reviews) != 1 || *st.Reviews[0].SubmittedAt != req.CreatedAt.Add(60*time.Second).Format(time.RFC3339) {
		t.Fatalf("review: %+v (request at %s)", st.Reviews, req.CreatedAt)
	}
	var eyes *StateReaction
	for i := range st.Reactions {
		if st.Reactions[i].Content == "eyes" {
			eyes = &st.Reactions[i]
		}
	}
	if eyes == nil || *eyes.CreatedAt != req.CreatedAt.Add(20*time.Second).Format(time.RFC3339) {
		t.Fatalf("eyes: %+v", eyes)
	}
}

// /_sim/state brings the world up to now by itself: the bot's answer is
// visible to a script that only reads the state.
func TestStateAdvancesTheBotWithoutAnAPIRequest(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Findings})
	f.pr.PostComment(Comment{Body: "@codex review"})
	f.clock.Advance(5 * time.Minute)
	st := f.s.Snapshot()
	if len(st.Reviews) != 1 || len(st.Threads) != len(DefaultFindings()) {
		t.Fatalf("reviews %d threads %d", len(st.Reviews), len(st.Threads))
	}
}

func TestParseScenarioList(t *testing.T) {
	got, err := ParseScenarioList("findings, clean ,clean-by-reaction,findings-comment,notice-limit,notice-error,silence")
	if err != nil {
		t.Fatal(err)
	}
	want := []ScenarioKind{Findings, ZeroFindings, CleanByReaction, FindingsComment, NoticeUsageLimit, NoticeError, Silent}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for _, k := range ScenarioKinds() { // every stable name too
		if l, err := ParseScenarioList(k.String()); err != nil || l[0] != k {
			t.Errorf("%s: %v %v", k, l, err)
		}
	}
	for _, bad := range []string{"", "findings,,clean", "findings,nope", "Findings"} {
		_, err := ParseScenarioList(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if bad == "findings,nope" && !strings.Contains(err.Error(), `scenario 2 "nope"`) {
			t.Errorf("error does not name the element: %v", err)
		}
	}
}
