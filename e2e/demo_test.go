package e2e

import (
	"context"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghclient/loopback"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// codexActor is how GraphQL presents the real bot: the app's slug, typed Bot,
// with the bot account's database id.
var codexActor = observe.Actor{Login: ghsim.CodexAppSlug, ID: ghsim.CodexBotID, Type: "Bot"}

// actorOf is what ghclient must report for a simulator account (GraphQL
// drops "[bot]" from a bot's login).
func actorOf(a ghsim.Account) observe.Actor {
	login := a.Login
	if a.Type == ghsim.TypeBot && len(login) > 5 && login[len(login)-5:] == "[bot]" {
		login = login[:len(login)-5]
	}
	return observe.Actor{Login: login, ID: a.ID, Type: a.Type}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// seedExtras adds what the demo lacks so every part of the observation is
// exercised: reactions on the PR (one by the bot, which GraphQL can only
// show as a Reactor) and a legacy commit status.
func seedExtras(t *testing.T, sim *ghsim.Server, pr *ghsim.PR) {
	t.Helper()
	octocat, ok := sim.Account(583231)
	if !ok {
		t.Fatal("demo reviewer missing")
	}
	now := time.Now().UTC().Truncate(time.Second)
	pr.AddReaction(ghsim.Reaction{Content: "heart", User: octocat, CreatedAt: now.Add(-2 * time.Minute)})
	pr.AddReaction(ghsim.Reaction{Content: "rocket", User: ghsim.CodexBot(), CreatedAt: now.Add(-time.Minute)})
	pr.Repo().AddStatus(ghsim.CommitStatus{SHA: ghsim.DemoHeadSHA, Context: "ci/legacy", State: "success"})
}

// TestDemoPRObservedCompletely runs the production client, unchanged but for
// its transport and token, against the seeded demo PR and compares every
// observed item with the simulator's own model.
func TestDemoPRObservedCompletely(t *testing.T) {
	sim := ghsim.New(ghsim.Options{}) // real clock, as the demo runs
	t.Cleanup(sim.Close)
	pr := ghsim.SeedDemo(sim)
	seedExtras(t, sim, pr)
	c := productionClient(t, sim.Transport())

	obs, cost, err := c.ObservePR(context.Background(), demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	if cost.Requests != 1 || cost.GraphQLPoints != 1 || cost.RESTCharged != 0 {
		t.Errorf("cost %+v, want one GraphQL request of one point", cost)
	}
	if obs.ViewerID != sim.Viewer().ID || obs.Repository != "octo-org/widgets" {
		t.Errorf("viewer %d repository %q", obs.ViewerID, obs.Repository)
	}

	d := pr.Data()
	wantPR := observe.PullRequest{
		Number: int64(d.Number), URL: "https://github.com/octo-org/widgets/pull/42", Title: d.Title, Body: d.Body,
		State: "OPEN", IsDraft: d.Draft, BaseRefName: d.Base, BaseSHA: d.BaseSHA, HeadRefName: d.Head, HeadSHA: d.HeadSHA,
		Mergeable: d.Mergeable, MergeStateStatus: d.MergeStateStatus, ReviewDecision: d.ReviewDecision,
	}
	if obs.PullRequest != wantPR {
		t.Errorf("pull request\n got %+v\nwant %+v", obs.PullRequest, wantPR)
	}

	var wantComments []observe.IssueComment
	for _, cm := range pr.Comments() {
		wantComments = append(wantComments, observe.IssueComment{
			ID: cm.ID, NodeID: cm.NodeID, Author: actorOf(cm.Author), Body: cm.Body,
			CreatedAt: stamp(cm.CreatedAt), UpdatedAt: stamp(cm.UpdatedAt), LastEditedAt: stamp(cm.LastEditedAt),
		})
	}
	if !reflect.DeepEqual(obs.IssueComments, wantComments) {
		t.Errorf("issue comments\n got %+v\nwant %+v", obs.IssueComments, wantComments)
	}

	perReview := map[int64]int{}
	var wantRC []observe.ReviewComment
	for _, rc := range pr.ReviewComments() {
		perReview[rc.ReviewID]++
		wantRC = append(wantRC, observe.ReviewComment{
			ID: rc.ID, NodeID: rc.NodeID, ReviewID: rc.ReviewID, InReplyToID: rc.InReplyToID, Author: actorOf(rc.Author),
			Body: rc.Body, CreatedAt: stamp(rc.CreatedAt), UpdatedAt: stamp(rc.UpdatedAt), LastEditedAt: stamp(rc.LastEditedAt),
			CommitID: rc.CommitID, OriginalCommitID: rc.OriginalCommitID, Path: rc.Path,
		})
	}
	sort.Slice(wantRC, func(i, j int) bool { return wantRC[i].ID < wantRC[j].ID })
	if !reflect.DeepEqual(obs.ReviewComments, wantRC) {
		t.Errorf("review comments\n got %+v\nwant %+v", obs.ReviewComments, wantRC)
	}

	var wantReviews []observe.Review
	for _, r := range pr.Reviews() {
		wantReviews = append(wantReviews, observe.Review{
			ID: r.ID, NodeID: r.NodeID, Author: actorOf(r.Author), Body: r.Body, State: r.State, CommitID: r.CommitID,
			SubmittedAt: stamp(r.SubmittedAt), UpdatedAt: stamp(r.UpdatedAt), LastEditedAt: stamp(r.LastEditedAt),
			CommentCount: perReview[r.ID],
		})
	}
	if !reflect.DeepEqual(obs.Reviews, wantReviews) {
		t.Errorf("reviews\n got %+v\nwant %+v", obs.Reviews, wantReviews)
	}

	threads := pr.Threads()
	if len(obs.Threads) != len(threads) {
		t.Fatalf("%d threads, want %d", len(obs.Threads), len(threads))
	}
	for i, th := range threads {
		got := obs.Threads[i]
		if got.ID != th.NodeID || got.IsResolved != th.Resolved || got.IsOutdated != th.Outdated || got.Path != th.Path ||
			got.Side != th.DiffSide || got.Line == nil || *got.Line != int64(th.Line) {
			t.Errorf("thread %d: got %+v, want %+v", i, got, th)
		}
		if len(got.Comments) != len(th.Comments) {
			t.Fatalf("thread %s: %d comments, want %d", th.NodeID, len(got.Comments), len(th.Comments))
		}
		for j, cm := range th.Comments {
			g := got.Comments[j]
			if g.ID != cm.ID || g.NodeID != cm.NodeID || g.Author != actorOf(cm.Author) || g.Body != cm.Body ||
				g.CommitID != cm.CommitID || g.OriginalCommitID != cm.OriginalCommitID {
				t.Errorf("thread %s comment %d: got %+v, want %+v", th.NodeID, j, g, cm)
			}
		}
	}

	// The Codex bot's findings arrive as the real bot: Bot, id 199175422.
	codexItems := 0
	for _, r := range obs.Reviews {
		if r.Author.ID == ghsim.CodexBotID {
			codexItems++
			if r.Author != codexActor || r.CommentCount != len(ghsim.DemoFindings()) {
				t.Errorf("Codex review %+v", r)
			}
		}
	}
	for _, rc := range obs.ReviewComments {
		if rc.Author.ID == ghsim.CodexBotID {
			codexItems++
			if rc.Author != codexActor {
				t.Errorf("Codex comment author %+v", rc.Author)
			}
		}
	}
	if codexItems != 1+len(ghsim.DemoFindings()) {
		t.Errorf("%d Codex reviews and comments, want %d", codexItems, 1+len(ghsim.DemoFindings()))
	}

	wantReactions := []observe.Reaction{
		{Content: "heart", User: observe.Actor{Login: "octocat", ID: 583231, Type: "User"}, CreatedAt: stamp(pr.Reactions()[0].CreatedAt), Subject: "pr"},
		{Content: "rocket", User: codexActor, CreatedAt: stamp(pr.Reactions()[1].CreatedAt), Subject: "pr"},
	}
	if !reflect.DeepEqual(obs.Reactions, wantReactions) {
		t.Errorf("reactions %+v, want %+v", obs.Reactions, wantReactions)
	}
	wantRuns := []observe.CheckRun{{Name: "build", Status: "completed", Conclusion: "success"}, {Name: "test (ubuntu-latest)", Status: "in_progress"}}
	if !obs.ChecksRead || !reflect.DeepEqual(obs.CheckRuns, wantRuns) {
		t.Errorf("checks read %v runs %+v", obs.ChecksRead, obs.CheckRuns)
	}
	if want := []observe.CommitStatus{{Context: "ci/legacy", State: "success"}}; !reflect.DeepEqual(obs.Statuses, want) {
		t.Errorf("statuses %+v", obs.Statuses)
	}
}

// TestDemoPRClassifiedAsFindings runs the whole report-only pipeline and
// checks the verdict against what the simulator's Codex posted.
func TestDemoPRClassifiedAsFindings(t *testing.T) {
	sim := ghsim.New(ghsim.Options{})
	t.Cleanup(sim.Close)
	pr := ghsim.SeedDemo(sim)
	c := productionClient(t, sim.Transport())

	r, err := inspect.Observe(context.Background(), c, demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Classification != "findings" || r.Verdict.Action != "report" || !r.Verdict.OK {
		t.Fatalf("verdict %+v", r.Verdict)
	}

	var codexThreads, others []string
	for _, th := range pr.Threads() {
		if th.Comments[0].Author.ID == ghsim.CodexBotID {
			codexThreads = append(codexThreads, th.NodeID)
		} else {
			others = append(others, th.NodeID)
		}
	}
	var actionable []string
	for _, th := range r.State.ActionableCodexThreads {
		actionable = append(actionable, th.ID)
	}
	if len(codexThreads) != len(ghsim.DemoFindings()) || !reflect.DeepEqual(actionable, codexThreads) {
		t.Errorf("actionable %v, want the Codex threads %v", actionable, codexThreads)
	}
	if r.State.NonCodexRootedThreads != int64(len(others)) || len(others) != 1 {
		t.Errorf("non-Codex rooted %d, want %d", r.State.NonCodexRootedThreads, len(others))
	}

	// The request is the demo's marker comment; Codex's 👀 on it was read.
	req := pr.Comments()[0]
	if r.State.RequestCommentID == nil || *r.State.RequestCommentID != req.ID {
		t.Fatalf("request %v, want %d", r.State.RequestCommentID, req.ID)
	}
	eyes := false
	for _, re := range r.Obs.Reactions {
		if re.Subject == strconv.FormatInt(req.ID, 10) && re.Content == "eyes" && re.User.ID == ghsim.CodexBotID {
			eyes = true
		}
	}
	if !eyes {
		t.Errorf("Codex's 👀 on the request was not observed: %+v", r.Obs.Reactions)
	}
	if r.Classified.Live.Reviewing {
		t.Error("a finished review reads as still running")
	}
	// One GraphQL query and one REST read of the request's reactions.
	if r.Cost.Requests != 2 || r.Cost.RESTCharged != 1 || r.Cost.GraphQLPoints != 1 {
		t.Errorf("cost %+v", r.Cost)
	}
}

// TestLoopbackTransportSeesTheSamePR: ghclient/loopback (what the demo uses)
// and the simulator's own transport must be interchangeable.
func TestLoopbackTransportSeesTheSamePR(t *testing.T) {
	sim := ghsim.New(ghsim.Options{Clock: ghsim.NewManualClock(start).Now})
	t.Cleanup(sim.Close)
	ghsim.SeedDemo(sim)
	sim.Start()
	lb, err := loopback.New(sim.URL())
	if err != nil {
		t.Fatal(err)
	}
	var got [2]*observe.PR
	for i, c := range []*ghclient.Client{productionClient(t, sim.Transport()), productionClient(t, lb)} {
		obs, _, err := c.ObservePR(context.Background(), demoRepo, ghsim.DemoPR)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		obs.ObservedAt = ""
		got[i] = obs
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("the two transports disagree:\n%+v\n%+v", got[0], got[1])
	}
}

// TestDemoFollowUpEndsInZeroFindings plays the demo's second act on the
// simulator's clock, as `gh-prloop demo` does on the wall clock.
func TestDemoFollowUpEndsInZeroFindings(t *testing.T) {
	e := newEnv(t)
	const step = 5 * time.Second
	ghsim.DemoFollowUp(e.sim, e.pr, step)
	observe := func() *inspect.Result {
		t.Helper()
		r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := observe()
	if r.Verdict.Classification != "awaiting-response" || r.Classified.Live.Reviewing || r.State.CurrentHeadSHA != ghsim.DemoFixSHA {
		t.Fatalf("right after the request: %+v reviewing=%v head=%s", r.Verdict, r.Classified.Live.Reviewing, r.State.CurrentHeadSHA)
	}
	if r.State.RequestHeadSHA == nil || *r.State.RequestHeadSHA != ghsim.DemoFixSHA {
		t.Errorf("request head %v, want the fix", r.State.RequestHeadSHA)
	}
	e.clock.Advance(step)
	if r := observe(); !r.Classified.Live.Reviewing {
		t.Errorf("👀 not seen after one step: %+v", r.Classified.Live)
	}
	e.clock.Advance(3 * step)
	r = observe()
	if r.Verdict.Classification != "zero-findings" || r.Classified.Live.Reviewing || len(r.State.ActionableCodexThreads) != 0 {
		t.Errorf("after the answer: %+v reviewing=%v actionable=%d", r.Verdict, r.Classified.Live.Reviewing, len(r.State.ActionableCodexThreads))
	}
	if e.sim.PendingCodex() != 0 {
		t.Error("Codex still has steps to run")
	}
}
