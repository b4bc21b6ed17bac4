package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

// cleanHead extends the commit the saved Completed summary names.
const cleanHead = "e92e968aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

const (
	summaryCreated = "2026-10-01T10:00:00Z" // posted for an earlier review
	summaryEdited  = "2026-10-07T23:47:00Z" // edited in place for this one
	thumbsAt       = "2026-10-07T23:47:01Z"
)

// cleanByReactionPR: Codex's clean round as it really looks — no comment at
// all, only the summary edited to ✅ Completed for the head and 👍 on the
// request comment.
func cleanByReactionPR(t *testing.T) *observe.PR {
	obs := basePR(cleanHead)
	obs.IssueComments = []observe.IssueComment{{ID: 6100, Author: bot, Body: fixture(t, "summary_completed.md"),
		CreatedAt: summaryCreated, UpdatedAt: summaryEdited, LastEditedAt: summaryEdited}}
	obs.Reactions = []observe.Reaction{{Content: "+1", User: bot, CreatedAt: thumbsAt, Subject: "5001"}}
	return obs
}

func TestCleanRoundByThumbsUpAndCompletedSummary(t *testing.T) {
	out := Classify(Input{Obs: cleanByReactionPR(t), Request: req(cleanHead)})
	if len(out.Responses) != 1 {
		t.Fatalf("responses = %+v, want the summary comment as the zero-findings response", out.Responses)
	}
	r := out.Responses[0]
	if r.Source != "issue-comment" || r.ID != "6100" || !r.ZeroFindingsSignal {
		t.Fatalf("response %+v", r)
	}
	if r.CommitSHA == nil || *r.CommitSHA != cleanHead {
		t.Errorf("commit_sha = %v, want the requested head", r.CommitSHA)
	}
	if r.CreatedAt != summaryCreated || r.ContentVersionAt != summaryEdited {
		t.Errorf("created %s version %s: the summary qualifies by its last edit", r.CreatedAt, r.ContentVersionAt)
	}
	if r.TriggerRequestCommentID == nil || *r.TriggerRequestCommentID != requestID {
		t.Errorf("trigger %v", r.TriggerRequestCommentID)
	}
	if len(out.Notices) != 0 {
		t.Errorf("notices %+v", out.Notices)
	}
}

func TestThumbsUpOnThePRCounts(t *testing.T) {
	obs := cleanByReactionPR(t)
	obs.Reactions[0].Subject = "pr"
	if out := Classify(Input{Obs: obs, Request: req(cleanHead)}); len(out.Responses) != 1 || !out.Responses[0].ZeroFindingsSignal {
		t.Fatalf("👍 on the PR: responses %+v", out.Responses)
	}
}

// Each condition of rule (b) is needed: take one away and the round is still
// awaiting its response.
func TestCleanByReactionNeedsEveryCondition(t *testing.T) {
	cases := map[string]func(*observe.PR){
		"no thumbs up":              func(o *observe.PR) { o.Reactions = nil },
		"eyes instead of thumbs up": func(o *observe.PR) { o.Reactions[0].Content = "eyes" },
		"thumbs up before the request": func(o *observe.PR) {
			o.Reactions[0].CreatedAt = "2026-10-07T23:39:59Z"
			o.Reactions[0].Subject = "pr"
		},
		"thumbs up on another comment": func(o *observe.PR) { o.Reactions[0].Subject = "4999" },
		"thumbs up by a look-alike":    func(o *observe.PR) { o.Reactions[0].User = sameLogin },
		"summary not edited since the request": func(o *observe.PR) {
			o.IssueComments[0].LastEditedAt, o.IssueComments[0].UpdatedAt = "2026-10-07T23:39:00Z", "2026-10-07T23:39:00Z"
		},
		"summary never edited, created before": func(o *observe.PR) { o.IssueComments[0].LastEditedAt = "" },
		"summary by a look-alike":              func(o *observe.PR) { o.IssueComments[0].Author = sameLogin },
		"summary running":                      func(o *observe.PR) { o.IssueComments[0].Body = fixture(t, "summary_running.md") },
		"findings review on the head": func(o *observe.PR) {
			o.Reviews = []observe.Review{{ID: 31, Author: bot, Body: fixture(t, "findings_review.md"), State: "COMMENTED",
				CommitID: cleanHead, SubmittedAt: "2026-10-06T00:00:00Z", CommentCount: 1}}
		},
		"inline finding on the head": func(o *observe.PR) {
			o.ReviewComments = []observe.ReviewComment{{ID: 41, Author: bot, Body: fixture(t, "finding_p1.md"),
				CreatedAt: "2026-10-06T00:00:00Z", CommitID: cleanHead, OriginalCommitID: cleanHead}}
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			obs := cleanByReactionPR(t)
			mutate(obs)
			out := Classify(Input{Obs: obs, Request: req(cleanHead)})
			for _, r := range out.Responses {
				if r.ZeroFindingsSignal {
					t.Fatalf("zero-findings signal without rule (b) holding: %+v", out.Responses)
				}
			}
		})
	}
}

// The summary names e92e968; a request for another head is not answered.
func TestCompletedSummaryForAnotherHeadIsNotClean(t *testing.T) {
	obs := cleanByReactionPR(t)
	obs.PullRequest.HeadSHA = otherHead
	if out := Classify(Input{Obs: obs, Request: req(otherHead)}); len(out.Responses) != 0 {
		t.Fatalf("responses %+v", out.Responses)
	}
}

func TestFailedSummaryRowIsANotice(t *testing.T) {
	obs := cleanByReactionPR(t)
	obs.IssueComments[0].Body = fixture(t, "summary_failed.md")
	obs.Reactions = nil
	out := Classify(Input{Obs: obs, Request: req(cleanHead)})
	if len(out.Responses) != 1 || out.Responses[0].ZeroFindingsSignal || out.Responses[0].CommitSHA != nil {
		t.Fatalf("responses %+v", out.Responses)
	}
	if len(out.Notices) != 1 || out.Notices[0].Kind != NoticeFailed || out.Notices[0].ID != "6100" {
		t.Fatalf("notices %+v", out.Notices)
	}
	if want := "| 📝 **Code Review** | ⚠️ **Failed**"; len(out.Notices[0].Text) < len(want) || out.Notices[0].Text[:len(want)] != want {
		t.Errorf("the notice quotes %q, want the failed row", out.Notices[0].Text)
	}
	if out.Live.SummaryState != SummaryFailed {
		t.Errorf("live %+v", out.Live)
	}
	// Failed for an earlier edit, before the request: not this round's notice.
	obs.IssueComments[0].LastEditedAt = "2026-10-07T23:39:00Z"
	if out := Classify(Input{Obs: obs, Request: req(cleanHead)}); len(out.Notices) != 0 || len(out.Responses) != 0 {
		t.Errorf("stale failed row: notices %+v responses %+v", out.Notices, out.Responses)
	}
}

// 🔒 Security Review rows and the security marker are shown, and never
// change the verdict: a clean round with a running security review is clean.
func TestSecurityReviewRowIsShownNotDecisive(t *testing.T) {
	obs := cleanByReactionPR(t)
	obs.IssueComments[0].Body = fixture(t, "summary_security.md")
	out := Classify(Input{Obs: obs, Request: req(cleanHead)})
	if out.Live.SecurityState != SummaryRunning || !out.Live.SecurityMarker || out.Live.SummaryState != SummaryCompleted {
		t.Errorf("live %+v", out.Live)
	}
	if len(out.Responses) != 1 || !out.Responses[0].ZeroFindingsSignal {
		t.Errorf("responses %+v", out.Responses)
	}
}

func TestSummaryRows(t *testing.T) {
	rows := readSummaryRows(fixture(t, "summary_security.md"))
	if len(rows) != 2 || rows[0].Kind != RowCodeReview || rows[0].State != SummaryCompleted || rows[0].Commit != "e92e968" ||
		rows[1].Kind != RowSecurityReview || rows[1].State != SummaryRunning {
		t.Fatalf("rows %+v", rows)
	}
	if hasSecurityMarker(fixture(t, "summary_completed.md")) {
		t.Error("marker found where there is none")
	}
}
