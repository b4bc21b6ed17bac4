package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghsim"
)

// loopCheckpoint is what a running loop knows about itself between wakeups
// (its checkpoint and the automation registry), as opposed to what it
// re-fetches from GitHub every time.
type loopCheckpoint struct {
	Mode                 string
	RunID                string
	RemoteName           string
	AutomationID         string
	FixRounds            int64
	CompletedRequestKeys []string
	Request              classify.Request // the canonical pending request
	Answered             []schema.Thread  // thread snapshots replied to in completed rounds
}

// loopState builds the full recurring state of one wakeup the way the loop
// will: every observed field from a fresh observation classified against the
// checkpoint's request, every automation/checkpoint field from ck. The
// result is what `evaluate --state` reads.
func loopState(t testing.TB, obs *observe.PR, ck loopCheckpoint) map[string]any {
	t.Helper()
	base, _ := classify.ReportState(obs) // the PR, gates and head fields
	out := classify.Classify(classify.Input{Obs: obs, Request: &ck.Request, Answered: ck.Answered})
	st := base
	st.Mode = ck.Mode
	st.RunID = ck.RunID
	st.Responses, st.ActionableCodexThreads, st.EligibleCodexThreads = out.Responses, out.Actionable, out.Eligible
	st.NonCodexRootedThreads = out.NonCodexRooted
	st.FixRounds = ck.FixRounds
	st.CompletedRequestKeys = append([]string{}, ck.CompletedRequestKeys...)
	id, created, head := ck.Request.CommentID, ck.Request.CreatedAt, ck.Request.HeadSHA
	at, err := schema.ParseTime(created)
	if err != nil {
		t.Fatal(err)
	}
	deadline := schema.FormatTime(at.Add(policy.RequestTimeoutSecs * time.Second))
	st.RequestCommentID, st.RequestCreatedAt, st.RequestHeadSHA, st.RequestDeadline = &id, &created, &head, &deadline

	b, err := canon.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	v, err := canon.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	key := policy.AutomationKey(obs.Repository, obs.PullRequest.Number, ck.RunID)
	m["automation_key"] = key
	m["owned_automation_id"] = ck.AutomationID
	m["remote_name"] = ck.RemoteName
	m["automations"] = []any{map[string]any{
		"id": ck.AutomationID, "key": key, "prompt_sha256": canon.Hash([]byte("prompt of " + key)),
		"rrule": policy.HeartbeatRRule, "status": "ACTIVE",
	}}
	m["execution_boundary"] = fixture.InitialBoundary(fixture.InitialOptions{})
	return m
}

// requestComment finds the conversation comment with exactly body.
func requestComment(t testing.TB, obs *observe.PR, body string) observe.IssueComment {
	t.Helper()
	for _, c := range obs.IssueComments {
		if c.Body == body {
			return c
		}
	}
	t.Fatalf("no comment %q", body)
	return observe.IssueComment{}
}

// TestLoopCleanRoundByThumbsUpReachesFinalization: round 1 of an
// approval-gated loop, where Codex answers the "@codex review" request only
// with 👍 and the summary's ✅ Completed row — no comment at all. The wakeup
// right after must plan finalization, long before request-timeout, instead
// of waiting 30 minutes and halting.
func TestLoopCleanRoundByThumbsUpReachesFinalization(t *testing.T) {
	e := newEnv(t)
	r := playFixRound(t, e, ghsim.Scenario{Kind: ghsim.CleanByReaction})
	obs := r.Obs
	round0 := requestComment(t, obs, ghsim.DemoRequestBody)
	round1 := requestComment(t, obs, ghsim.DemoFollowUpRequestBody)
	for _, c := range obs.IssueComments {
		if c.Author.ID == policy.CodexBotID && !strings.HasPrefix(c.Body, ghsim.SummaryMarker) && c.CreatedAt >= round1.CreatedAt {
			t.Fatalf("the bot commented; this round must be signalled only by 👍 and the summary: %q", c.Body)
		}
	}
	created, _ := schema.ParseTime(round1.CreatedAt)
	ck := loopCheckpoint{
		Mode: policy.ModeApprovalGated, RunID: ghsim.DemoRunID, RemoteName: "origin", AutomationID: "automation-demo-1",
		FixRounds:            1,
		CompletedRequestKeys: []string{policy.RequestKey(round0.ID, ghsim.DemoHeadSHA)},
		Request:              classify.Request{CommentID: round1.ID, CreatedAt: schema.FormatTime(created), HeadSHA: ghsim.DemoFixSHA},
	}
	st := loopState(t, obs, ck)
	res := evaluate.Evaluate(st)
	if res.Action != evaluate.ActionPlanFinalization || res.Reason != "zero-findings" {
		t.Fatalf("wakeup after a clean-by-👍 round: %s/%s (%s; errors %v; inconsistencies %v), want plan-finalization",
			res.Action, res.Reason, res.Message, res.Errors, res.Inconsistencies)
	}
	observed, _ := schema.ParseTime(obs.ObservedAt)
	deadline, _ := schema.ParseTime(st["request_deadline"].(string))
	if left := deadline.Sub(observed); left < 20*time.Minute {
		t.Fatalf("observed %s, only %s before the deadline", obs.ObservedAt, left)
	}
	resp := st["responses"].([]any)
	if len(resp) != 1 || resp[0].(map[string]any)["zero_findings_signal"] != true {
		t.Fatalf("responses %v: want the summary as the one zero-findings response", resp)
	}
}
