package classify

import (
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
)

// Request is the canonical pending review request a round waits on.
type Request struct {
	CommentID int64  // database id of the PR conversation comment
	CreatedAt string // ISO-8601 with a timezone; compared as an instant
	HeadSHA   string // 40-hex head the request asked Codex to review
}

// Input is everything Classify needs. Request nil means there is no pending
// request, so nothing can qualify. Answered are the thread snapshots replied
// to in completed rounds, matched by thread id.
type Input struct {
	Obs      *observe.PR
	Request  *Request
	Answered []schema.Thread
}

// Live is what the console shows while no verdict has arrived; it never
// decides anything.
type Live struct {
	// Reviewing is true while Codex visibly works on the request (👀 on the
	// request, or the summary comment says Running) and no qualifying
	// response exists yet.
	Reviewing bool
	// SummaryState is "running", "completed", "failed" or "" as read from
	// the Code Review row of the bot's summary comment for the target head.
	SummaryState string
	// SecurityState is the same for the 🔒 Security Review row. Like the
	// security marker it is shown and never changes the verdict.
	SecurityState string
	// SecurityMarker: the summary carries the codex-security-review:v1 marker.
	SecurityMarker bool
	// Reactions are the bot's reaction contents on the request comment (or,
	// after the request, on the PR itself), sorted and unique.
	Reactions []string
}

// Notice is a qualifying Codex response that is a service message, not a
// review: it makes the round ambiguous and the evaluator quotes it.
type Notice struct {
	Source string // issue-comment | review
	ID     string // decimal database id, as in the response
	Kind   string // usage-limit | environment | account | deactivated | error | failed
	Text   string // the body, trimmed and clipped, for quoting
}

// Output is the classification of one observation.
type Output struct {
	// Responses are every qualifying trusted response, normalized, sorted by
	// source then numeric id. Never nil.
	Responses []schema.Response
	// Older are trusted responses that do not qualify for the request
	// (posted before it, or about another commit), normalized with a null
	// trigger_request_comment_id, for reports and the UI. Never in a state.
	Older []schema.Response
	// Actionable and Eligible are unresolved Codex-rooted thread snapshots,
	// sorted by id. Never nil.
	Actionable     []schema.Thread
	Eligible       []schema.Thread
	NonCodexRooted int64
	Gates          schema.Gates
	Live           Live
	// Notices lists the qualifying responses that are service notices.
	Notices []Notice
}

// Classify classifies one observation.
func Classify(in Input) Output {
	out := Output{
		Responses:  []schema.Response{},
		Older:      []schema.Response{},
		Actionable: []schema.Thread{},
		Eligible:   []schema.Thread{},
		Live:       Live{Reactions: []string{}},
		Notices:    []Notice{},
		Gates:      unknownGates(),
	}
	if in.Obs == nil {
		return out
	}
	req := newRequestClock(in.Request)
	rs := collectResponses(in.Obs, req)
	out.Responses, out.Older, out.Notices = rs.qualifying, rs.older, rs.notices
	out.Actionable, out.Eligible, out.NonCodexRooted = classifyThreads(in.Obs.Threads, in.Answered)
	out.Gates = ReadGates(in.Obs)
	out.Live = readLive(in.Obs, req, len(out.Responses) > 0)
	return out
}
