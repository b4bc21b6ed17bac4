package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
)

// findingsPR: the saved findings round — a COMMENTED review on the head with
// one inline P1 comment, both posted after the request.
func findingsPR(t *testing.T) *observe.PR {
	obs := basePR(findingsHead)
	obs.Reviews = []observe.Review{{
		ID: 3300000001, Author: bot, Body: fixture(t, "findings_review.md"), State: "COMMENTED",
		CommitID: findingsHead, SubmittedAt: "2026-10-07T23:49:31Z", CommentCount: 1,
	}}
	obs.ReviewComments = []observe.ReviewComment{{
		ID: 2400000001, ReviewID: 3300000001, Author: bot, Body: fixture(t, "finding_p1.md"),
		CreatedAt: "2026-10-07T23:49:31Z", CommitID: findingsHead, OriginalCommitID: findingsHead, Path: "mu/tools/executors/commit_executor.py",
	}}
	return obs
}

func TestFindingsReviewWithInlineComment(t *testing.T) {
	out := Classify(Input{Obs: findingsPR(t), Request: req(findingsHead)})
	if len(out.Responses) != 2 {
		t.Fatalf("responses = %+v, want the review and its inline comment", out.Responses)
	}
	rv, rc := out.Responses[0], out.Responses[1]
	if rv.Source != "review" || rv.ID != "3300000001" || rc.Source != "review-comment" || rc.ID != "2400000001" {
		t.Fatalf("order/ids wrong: %+v", out.Responses)
	}
	for _, r := range out.Responses {
		if r.BotID != 199175422 || r.BotType != "Bot" || r.ZeroFindingsSignal {
			t.Errorf("%s: bot/zero wrong: %+v", r.ID, r)
		}
		if r.TriggerRequestCommentID == nil || *r.TriggerRequestCommentID != requestID {
			t.Errorf("%s: trigger = %v, want %d", r.ID, r.TriggerRequestCommentID, requestID)
		}
		if r.CommitSHA == nil || *r.CommitSHA != findingsHead {
			t.Errorf("%s: commit_sha = %v", r.ID, r.CommitSHA)
		}
		if r.CreatedAt != "2026-10-07T23:49:31Z" || r.ContentVersionAt != r.CreatedAt {
			t.Errorf("%s: times %s / %s", r.ID, r.CreatedAt, r.ContentVersionAt)
		}
	}
	if rv.BodySHA256 != "d29bea6ce5fa7c2a6810f71ad9f37c44833e0fc88541c8d4030cfa5f87340832" ||
		rc.BodySHA256 != "ff2c6b22b5f36ec3b2347da074a3be12739fe0643a6748f3cffb1fc883860fbc" {
		t.Errorf("body digests are not of the raw bodies: %s %s", rv.BodySHA256, rc.BodySHA256)
	}
	if len(out.Notices) != 0 || len(out.Older) != 0 {
		t.Errorf("notices %+v older %+v", out.Notices, out.Older)
	}
}

// A review that says "no issues" but carries inline comments has findings.
func TestZeroFindingsNeverForReviewWithInlineComments(t *testing.T) {
	for _, count := range []int{0, 1} {
		obs := basePR(zeroHead)
		obs.Reviews = []observe.Review{{
			ID: 77, Author: bot, Body: fixture(t, "zero_findings.md"), State: "COMMENTED",
			CommitID: zeroHead, SubmittedAt: "2026-10-07T23:50:00Z", CommentCount: count,
		}}
		out := Classify(Input{Obs: obs, Request: req(zeroHead)})
		if len(out.Responses) != 1 {
			t.Fatalf("count %d: responses %+v", count, out.Responses)
		}
		if got, want := out.Responses[0].ZeroFindingsSignal, count == 0; got != want {
			t.Errorf("inline comments %d: zero_findings_signal = %v, want %v", count, got, want)
		}
	}
}

func zeroComment(t *testing.T, id int64, at string) observe.IssueComment {
	return observe.IssueComment{ID: id, Author: bot, Body: fixture(t, "zero_findings.md"), CreatedAt: at, UpdatedAt: at}
}

func TestZeroFindingsCommentForTheRequestedHead(t *testing.T) {
	obs := basePR(zeroHead)
	obs.IssueComments = []observe.IssueComment{zeroComment(t, 9001, "2026-10-07T23:56:10Z")}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if len(out.Responses) != 1 {
		t.Fatalf("responses %+v", out.Responses)
	}
	r := out.Responses[0]
	if r.Source != "issue-comment" || r.ID != "9001" || !r.ZeroFindingsSignal {
		t.Errorf("want a zero-findings issue comment, got %+v", r)
	}
	if r.CommitSHA == nil || *r.CommitSHA != zeroHead {
		t.Errorf("commit_sha = %v, want the full request head", r.CommitSHA)
	}
	if r.BodySHA256 != "7d939bab6b6089e0ea89d069a9e3d8cb37e3df052fa58c7c54dee81a228e816b" {
		t.Errorf("body digest %s", r.BodySHA256)
	}
}

// PROTOCOL §5: a zero-findings comment for another commit does not qualify.
func TestZeroFindingsCommentForAnotherCommitIsExcluded(t *testing.T) {
	obs := basePR(otherHead)
	obs.IssueComments = []observe.IssueComment{zeroComment(t, 9001, "2026-10-07T23:56:10Z")}
	out := Classify(Input{Obs: obs, Request: req(otherHead)})
	if len(out.Responses) != 0 {
		t.Fatalf("a verdict on b27d1d8861 qualified for %s: %+v", otherHead, out.Responses)
	}
	if len(out.Older) != 1 || out.Older[0].TriggerRequestCommentID != nil || out.Older[0].CommitSHA != nil || out.Older[0].ZeroFindingsSignal {
		t.Errorf("older = %+v, want it kept with null trigger, null commit, no signal", out.Older)
	}
}

func TestZeroFindingsNeedsTheSentenceFirst(t *testing.T) {
	obs := basePR(zeroHead)
	c := zeroComment(t, 9001, "2026-10-07T23:56:10Z")
	c.Body = "Quoting the bot:\n" + c.Body
	obs.IssueComments = []observe.IssueComment{c}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if len(out.Responses) != 1 || out.Responses[0].ZeroFindingsSignal {
		t.Errorf("a body that does not open with the sentence signalled zero findings: %+v", out.Responses)
	}
}

func TestSummaryAndReactionsAreNotResponses(t *testing.T) {
	obs := basePR(zeroHead)
	obs.IssueComments = []observe.IssueComment{{ID: 6047467226, Author: bot, Body: fixture(t, "summary_running.md"), CreatedAt: "2026-10-07T23:41:00Z"}}
	obs.Reactions = []observe.Reaction{{Content: "eyes", User: observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "User"}, CreatedAt: "2026-10-07T23:40:05Z", Subject: "5001"}}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if len(out.Responses) != 0 || len(out.Older) != 0 {
		t.Fatalf("summary/reaction became a response: %+v %+v", out.Responses, out.Older)
	}
	if !out.Live.Reviewing || out.Live.SummaryState != SummaryRunning {
		t.Errorf("live = %+v, want reviewing/running", out.Live)
	}
	if len(out.Live.Reactions) != 1 || out.Live.Reactions[0] != "eyes" {
		t.Errorf("reactions = %v", out.Live.Reactions)
	}
}

func TestNoticesAreQualifyingResponses(t *testing.T) {
	cases := []struct {
		name, body, kind string
	}{
		{"usage limit", fixture(t, "usage_limit.md"), NoticeUsageLimit},
		{"usage limit, admins wording", fixture(t, "usage_limit_admins.md"), NoticeUsageLimit},
		{"environment", fixture(t, "environment.md"), NoticeEnvironment},
		{"error", fixture(t, "error.md"), NoticeError},
		// PROTOCOL §5 names this wording; no real body was found (testdata/README.md).
		{"something went wrong (protocol wording)", "Something went wrong. Try again later.", NoticeError},
		{"something went wrong, real form after Codex Review:", fixture(t, "notice_error_review.md"), NoticeError},
		{"account", fixture(t, "notice_account.md"), NoticeAccount},
		{"deactivated", fixture(t, "notice_deactivated.md"), NoticeDeactivated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obs := basePR(findingsHead)
			obs.IssueComments = []observe.IssueComment{{ID: 8100, Author: bot, Body: tc.body, CreatedAt: "2026-10-07T23:40:19Z"}}
			out := Classify(Input{Obs: obs, Request: req(findingsHead)})
			if len(out.Responses) != 1 || out.Responses[0].ID != "8100" || out.Responses[0].ZeroFindingsSignal {
				t.Fatalf("responses %+v", out.Responses)
			}
			if out.Responses[0].CommitSHA != nil {
				t.Errorf("a notice names no commit, got %v", *out.Responses[0].CommitSHA)
			}
			want := Notice{Source: "issue-comment", ID: "8100", Kind: tc.kind, Text: clip(tc.body, maxNoticeText)}
			if len(out.Notices) != 1 || out.Notices[0] != want {
				t.Errorf("notices = %+v, want %+v", out.Notices, want)
			}
		})
	}
}

func TestOldNoticeIsNotListed(t *testing.T) {
	obs := basePR(findingsHead)
	obs.IssueComments = []observe.IssueComment{{ID: 8100, Author: bot, Body: fixture(t, "usage_limit.md"), CreatedAt: "2026-10-07T23:39:59Z"}}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Notices) != 0 || len(out.Responses) != 0 || len(out.Older) != 1 {
		t.Errorf("notice before the request: notices %+v responses %+v older %+v", out.Notices, out.Responses, out.Older)
	}
}

// A real P2 finding discusses the usage-limit wording; it is a finding.
func TestFindingQuotingNoticeWordingIsNotANotice(t *testing.T) {
	obs := basePR(findingsHead)
	obs.ReviewComments = []observe.ReviewComment{{ID: 71, Author: bot, Body: fixture(t, "finding_p2_usage_wording.md"),
		CreatedAt: "2026-10-07T23:45:00Z", CommitID: findingsHead, OriginalCommitID: findingsHead}}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Responses) != 1 || len(out.Notices) != 0 {
		t.Errorf("responses %+v notices %+v", out.Responses, out.Notices)
	}
}

func TestEditedCommentUsesLastEditedAt(t *testing.T) {
	obs := basePR(zeroHead)
	c := zeroComment(t, 9001, "2026-10-07T23:56:10Z")
	c.LastEditedAt = "2026-10-08T01:02:03+02:00"
	obs.IssueComments = []observe.IssueComment{c}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if len(out.Responses) != 1 {
		t.Fatalf("responses %+v", out.Responses)
	}
	r := out.Responses[0]
	if r.CreatedAt != "2026-10-07T23:56:10Z" || r.ContentVersionAt != "2026-10-07T23:02:03Z" {
		t.Errorf("created %s version %s", r.CreatedAt, r.ContentVersionAt)
	}
}

func TestLookAlikeAccountsNeverCount(t *testing.T) {
	for name, who := range map[string]observe.Actor{"same login, other id": sameLogin, "right id, type User": asUser} {
		t.Run(name, func(t *testing.T) {
			obs := findingsPR(t)
			obs.Reviews[0].Author = who
			obs.ReviewComments[0].Author = who
			obs.IssueComments = []observe.IssueComment{{ID: 9001, Author: who, Body: fixture(t, "usage_limit.md"), CreatedAt: "2026-10-07T23:50:00Z"}}
			out := Classify(Input{Obs: obs, Request: req(findingsHead)})
			if len(out.Responses)+len(out.Older)+len(out.Notices) != 0 {
				t.Errorf("look-alike counted: %+v %+v %+v", out.Responses, out.Older, out.Notices)
			}
		})
	}
}

func TestLookAlikeReactionsNeverCount(t *testing.T) {
	obs := basePR(findingsHead)
	obs.Reactions = []observe.Reaction{
		{Content: "eyes", User: observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 424242, Type: "User"}, Subject: "5001", CreatedAt: "2026-10-07T23:40:01Z"},
		{Content: "+1", User: observe.Actor{Login: "octocat", ID: 199175422, Type: "User"}, Subject: "5001", CreatedAt: "2026-10-07T23:40:01Z"},
	}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if out.Live.Reviewing || len(out.Live.Reactions) != 0 {
		t.Errorf("look-alike reactions counted: %+v", out.Live)
	}
}

func TestResponsesBeforeTheRequestAreOlder(t *testing.T) {
	obs := findingsPR(t)
	// The same instant as the request still qualifies (created at or after).
	obs.Reviews[0].SubmittedAt = "2026-10-08T01:40:00+02:00"
	obs.ReviewComments[0].CreatedAt = "2026-10-07T23:39:59Z"
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Responses) != 1 || out.Responses[0].Source != "review" || out.Responses[0].CreatedAt != "2026-10-07T23:40:00Z" {
		t.Fatalf("responses %+v", out.Responses)
	}
	if len(out.Older) != 1 || out.Older[0].Source != "review-comment" || out.Older[0].TriggerRequestCommentID != nil {
		t.Errorf("older %+v", out.Older)
	}
}

// After a push GitHub moves commit_id to the new head; original_commit_id
// keeps the reviewed commit. Only the original decides.
func TestReviewCommentUsesOriginalCommitAfterPush(t *testing.T) {
	obs := findingsPR(t)
	obs.Reviews = nil
	obs.PullRequest.HeadSHA = otherHead
	obs.ReviewComments[0].CommitID = otherHead // re-anchored
	out := Classify(Input{Obs: obs, Request: req(otherHead)})
	if len(out.Responses) != 0 {
		t.Errorf("a comment on %s qualified for %s via its re-anchored commit_id", findingsHead, otherHead)
	}
	out = Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Responses) != 1 || *out.Responses[0].CommitSHA != findingsHead {
		t.Errorf("responses %+v, want the comment with commit_sha = original_commit_id", out.Responses)
	}
}

func TestReviewOnAnotherCommitDoesNotQualify(t *testing.T) {
	obs := findingsPR(t)
	out := Classify(Input{Obs: obs, Request: req(otherHead)})
	if len(out.Responses) != 0 || len(out.Older) != 2 {
		t.Errorf("responses %+v older %+v", out.Responses, out.Older)
	}
}

func TestNoRequestNothingQualifies(t *testing.T) {
	out := Classify(Input{Obs: findingsPR(t)})
	if len(out.Responses) != 0 || len(out.Older) != 2 {
		t.Errorf("responses %+v older %+v", out.Responses, out.Older)
	}
}

func TestResponsesSortBySourceThenNumericID(t *testing.T) {
	obs := basePR(findingsHead)
	at := "2026-10-07T23:50:00Z"
	for _, id := range []int64{100, 9, 25} {
		obs.IssueComments = append(obs.IssueComments, observe.IssueComment{ID: id, Author: bot, Body: "Codex Review: comment", CreatedAt: at})
		obs.ReviewComments = append(obs.ReviewComments, observe.ReviewComment{ID: id, Author: bot, Body: "x", CreatedAt: at, OriginalCommitID: findingsHead})
		obs.Reviews = append(obs.Reviews, observe.Review{ID: id, Author: bot, Body: "x", State: "COMMENTED", CommitID: findingsHead, SubmittedAt: at})
	}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	var got []string
	for _, r := range out.Responses {
		got = append(got, r.Source+":"+r.ID)
	}
	want := []string{"issue-comment:9", "issue-comment:25", "issue-comment:100", "review:9", "review:25", "review:100", "review-comment:9", "review-comment:25", "review-comment:100"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestPendingReviewIsIgnored(t *testing.T) {
	obs := findingsPR(t)
	obs.Reviews[0].State = "PENDING"
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	for _, r := range append(out.Responses, out.Older...) {
		if r.Source == "review" {
			t.Errorf("pending review became a response: %+v", r)
		}
	}
}

func TestUnreadableTimestampIsNotGuessed(t *testing.T) {
	obs := findingsPR(t)
	obs.Reviews[0].SubmittedAt = "yesterday"
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	for _, r := range append(out.Responses, out.Older...) {
		if r.Source == "review" {
			t.Errorf("review with unreadable time was dated: %+v", r)
		}
	}
	if len(out.Responses) != 1 {
		t.Errorf("the inline comment should still qualify: %+v", out.Responses)
	}
}

// Every response Classify emits must decode under the state schema.
func TestResponsesMatchTheSchemaShape(t *testing.T) {
	out := Classify(Input{Obs: findingsPR(t), Request: req(findingsHead)})
	for _, r := range out.Responses {
		if !schema.IsProductTime(r.CreatedAt) || !schema.IsProductTime(r.ContentVersionAt) {
			t.Errorf("times not in product form: %+v", r)
		}
	}
}

// A review verdict that happens to mention a notice phrase is a verdict, not
// a service notice (synthetic body: the guard, not the bot, is under test).
func TestVerdictMentioningNoticePhraseIsNotANotice(t *testing.T) {
	obs := basePR(findingsHead)
	obs.IssueComments = []observe.IssueComment{{ID: 8200, Author: bot, CreatedAt: "2026-10-07T23:50:00Z",
		Body: "Codex Review: the setup script should create an environment for this repo before tests run."}}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Responses) != 1 || len(out.Notices) != 0 {
		t.Errorf("responses %+v notices %+v", out.Responses, out.Notices)
	}
}

// Notices are matched where the bot puts them, at the start of the body: a
// body that quotes one (even the bot's own) is not one. Before the rule only
// looked for the words anywhere, and these were halted as notices.
func TestQuotedNoticeIsNotANotice(t *testing.T) {
	for name, body := range map[string]string{
		"quote block":                       "> " + fixture(t, "notice_deactivated.md") + "\n\nThis was fixed by reconnecting the workspace.",
		"later in text":                     "Heads-up from the previous run: " + fixture(t, "notice_account.md"),
		"something went wrong mid-sentence": "The migration failed because something went wrong in the schema step.",
	} {
		t.Run(name, func(t *testing.T) {
			obs := basePR(findingsHead)
			obs.IssueComments = []observe.IssueComment{{ID: 8300, Author: bot, Body: body, CreatedAt: "2026-10-07T23:50:00Z"}}
			out := Classify(Input{Obs: obs, Request: req(findingsHead)})
			if len(out.Responses) != 1 || len(out.Notices) != 0 {
				t.Errorf("responses %+v notices %+v", out.Responses, out.Notices)
			}
		})
	}
}

// Notices are read from review bodies as well as issue comments.
func TestNoticeAsReview(t *testing.T) {
	obs := basePR(findingsHead)
	obs.Reviews = []observe.Review{{ID: 8400, Author: bot, Body: fixture(t, "notice_error_review.md"), State: "COMMENTED",
		CommitID: findingsHead, SubmittedAt: "2026-10-07T23:50:00Z"}}
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Notices) != 1 || out.Notices[0].Kind != NoticeError || out.Notices[0].Source != "review" {
		t.Fatalf("notices %+v", out.Notices)
	}
}
