package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
)

const runID = "0123456789abcdef0123456789abcdef"

func TestFindRequest(t *testing.T) {
	marker := "@codex please review this fix.\n" + policy.RequestMarker(runID, 2, findingsHead)
	cases := []struct {
		name     string
		comments []observe.IssueComment
		want     *Request
	}{
		{"none", nil, nil},
		{"plain @codex review is about the PR head", []observe.IssueComment{
			{ID: 10, Author: human, Body: "@codex review", CreatedAt: "2026-10-07T23:40:00Z"},
		}, &Request{CommentID: 10, CreatedAt: "2026-10-07T23:40:00Z", HeadSHA: otherHead}},
		{"marker names its head; time normalized", []observe.IssueComment{
			{ID: 11, Author: human, Body: marker, CreatedAt: "2026-10-08T01:40:00+02:00"},
		}, &Request{CommentID: 11, CreatedAt: "2026-10-07T23:40:00Z", HeadSHA: findingsHead}},
		{"latest wins", []observe.IssueComment{
			{ID: 12, Author: human, Body: marker, CreatedAt: "2026-10-07T23:40:00Z"},
			{ID: 13, Author: human, Body: "Thanks!\n@codex review please", CreatedAt: "2026-10-07T23:45:00Z"},
			{ID: 14, Author: human, Body: "lgtm", CreatedAt: "2026-10-07T23:50:00Z"},
		}, &Request{CommentID: 13, CreatedAt: "2026-10-07T23:45:00Z", HeadSHA: otherHead}},
		{"same second: higher id wins", []observe.IssueComment{
			{ID: 16, Author: human, Body: "@codex review", CreatedAt: "2026-10-07T23:40:00Z"},
			{ID: 15, Author: human, Body: marker, CreatedAt: "2026-10-07T23:40:00Z"},
		}, &Request{CommentID: 16, CreatedAt: "2026-10-07T23:40:00Z", HeadSHA: otherHead}},
		{"the bot's own comments are ignored, whatever their type", []observe.IssueComment{
			{ID: 17, Author: human, Body: "@codex review", CreatedAt: "2026-10-07T23:40:00Z"},
			{ID: 18, Author: bot, Body: fixture(t, "summary_running.md"), CreatedAt: "2026-10-07T23:41:00Z"},
			{ID: 19, Author: asUser, Body: "@codex review", CreatedAt: "2026-10-07T23:42:00Z"},
		}, &Request{CommentID: 17, CreatedAt: "2026-10-07T23:40:00Z", HeadSHA: otherHead}},
		{"quoted or mentioned-only lines are not requests", []observe.IssueComment{
			{ID: 20, Author: human, Body: "> @codex review\nas above", CreatedAt: "2026-10-07T23:40:00Z"},
			{ID: 21, Author: human, Body: "@codex what does this do?", CreatedAt: "2026-10-07T23:41:00Z"},
			{ID: 22, Author: human, Body: "ping @codexbot review", CreatedAt: "2026-10-07T23:42:00Z"},
		}, nil},
		// Only the documented trigger asks for a code review; other wording
		// starts a cloud task (or a security review), which never answers as one.
		{"other @codex wording is not a review request", []observe.IssueComment{
			{ID: 25, Author: human, Body: "@codex please review this fix.", CreatedAt: "2026-10-07T23:40:00Z"},
			{ID: 26, Author: human, Body: "@codex security review", CreatedAt: "2026-10-07T23:41:00Z"},
			{ID: 27, Author: human, Body: "Could @codex review this?", CreatedAt: "2026-10-07T23:42:00Z"},
			{ID: 28, Author: human, Body: "@codex reviewer: please look", CreatedAt: "2026-10-07T23:43:00Z"},
		}, nil},
		{"unrendered placeholder is a plain request for the PR head", []observe.IssueComment{
			{ID: 23, Author: human, Body: policy.FixReviewTemplate(runID, 1), CreatedAt: "2026-10-07T23:40:00Z"},
		}, &Request{CommentID: 23, CreatedAt: "2026-10-07T23:40:00Z", HeadSHA: otherHead}},
		{"unreadable time is skipped", []observe.IssueComment{
			{ID: 24, Author: human, Body: "@codex review", CreatedAt: "soon"},
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obs := basePR(otherHead)
			obs.IssueComments = tc.comments
			got := FindRequest(obs)
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
