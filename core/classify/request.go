package classify

import (
	"regexp"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
)

// reMarker is policy.RequestMarker with a rendered 40-hex sha; an unrendered
// {{FINAL_HEAD_SHA}} does not name a head and is not a marker.
var reMarker = regexp.MustCompile(`<!-- github-codex-pr-loop-request run=[0-9a-f]{32} round=(?:0|[1-9][0-9]*) sha=([0-9a-f]{40}) -->`)

// reAsk is a line that asks Codex for a code review: the documented trigger
// "@codex review" opening the line ("@codex review", "@codex review please").
// Other wording ("@codex please review this fix.", "@codex security
// review") starts a Codex cloud task or another kind of review, which never
// answers as a code review would (PROTOCOL §3, §5).
var reAsk = regexp.MustCompile(`(?i)^@codex[ \t]+review(?:$|[^\w-])`)

// FindRequest returns the latest PR conversation comment that asks Codex for
// a review, or nil. A comment carrying the canonical marker names its head;
// any other request (a line opening with "@codex review") is taken to be about
// the PR head as observed, since that is what Codex reviews when asked. The
// latest request of either kind wins, because Codex answers each one.
// Comments by the bot's account (by id, whatever the type) are never
// requests, nor are quoted lines ("> @codex review"), which only cite one.
// CreatedAt is returned in the product's timestamp form.
func FindRequest(obs *observe.PR) *Request {
	if obs == nil {
		return nil
	}
	var best *Request
	var bestID int64
	for _, c := range obs.IssueComments {
		if c.Author.ID == policy.CodexBotID || c.ID <= 0 {
			continue
		}
		head, ok := requestedHead(c.Body, obs.PullRequest.HeadSHA)
		if !ok {
			continue
		}
		at, ok := instant(c.CreatedAt)
		if !ok {
			continue
		}
		if best != nil {
			prev, _ := instant(best.CreatedAt)
			if at.Before(prev) || at.Equal(prev) && c.ID < bestID {
				continue
			}
		}
		best = &Request{CommentID: c.ID, CreatedAt: productTimeOf(at), HeadSHA: head}
		bestID = c.ID
	}
	return best
}

// requestedHead decides whether a body is a review request and for which head.
func requestedHead(body, prHead string) (string, bool) {
	if m := reMarker.FindStringSubmatch(body); m != nil {
		return m[1], true
	}
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, ">") {
			continue
		}
		if reAsk.MatchString(line) {
			head := lowerHex(prHead)
			return head, isSHA1(head)
		}
	}
	return "", false
}
