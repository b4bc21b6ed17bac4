package classify

import (
	"sort"
	"strconv"

	"github.com/prloop/gh-prloop/core/observe"
)

// readLive derives the progress view. The target head is the request's, or
// the PR head when nothing was requested (a report still shows activity).
// Reactions count on the request comment, and on the PR itself only from the
// request on: the bot reacts to the PR for automatic reviews, and an older
// 👀 there belongs to an earlier review.
func readLive(obs *observe.PR, req requestClock, answered bool) Live {
	head := lowerHex(obs.PullRequest.HeadSHA)
	if req.valid {
		head = req.head
	}
	live := Live{Reactions: []string{}}
	for _, c := range obs.IssueComments {
		if !Trusted(c.Author) || !isSummary(c.Body) {
			continue
		}
		live.SummaryState = stronger(live.SummaryState, summaryState(c.Body, head, RowCodeReview))
		live.SecurityState = stronger(live.SecurityState, summaryState(c.Body, head, RowSecurityReview))
		live.SecurityMarker = live.SecurityMarker || hasSecurityMarker(c.Body)
	}
	seen := map[string]bool{}
	for _, r := range obs.Reactions {
		if !trustedReactor(r.User) || !reactionTargetsRequest(r, req) || seen[r.Content] {
			continue
		}
		seen[r.Content] = true
		live.Reactions = append(live.Reactions, r.Content)
	}
	sort.Strings(live.Reactions)
	live.Reviewing = !answered && (seen["eyes"] || live.SummaryState == SummaryRunning)
	return live
}

// stronger keeps the state that says more about an unfinished verdict:
// running, then failed, then completed (see summaryState).
func stronger(a, b string) string {
	rank := map[string]int{"": 0, SummaryCompleted: 1, SummaryFailed: 2, SummaryRunning: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func reactionTargetsRequest(r observe.Reaction, req requestClock) bool {
	if !req.valid {
		return r.Subject == "pr"
	}
	if r.Subject == strconv.FormatInt(req.id, 10) {
		return true
	}
	return r.Subject == "pr" && req.after(r.CreatedAt)
}
