package ghsim

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

func (f *fixture) postRequest(body string) map[string]any {
	f.t.Helper()
	r := f.do("POST", "/repos/acme/app/issues/7/comments", map[string]any{"body": body})
	if r.status != 201 {
		f.t.Fatalf("post comment: %d %s", r.status, r.body)
	}
	return r.object(f.t)
}

func (f *fixture) restList(path string) []any {
	f.t.Helper()
	r := f.do("GET", path, nil)
	if r.status != 200 {
		f.t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return r.list(f.t)
}

func botComments(t *testing.T, list []any) []map[string]any {
	var out []map[string]any
	for _, c := range list {
		if dig(t, c, "user", "id") == float64(CodexBotID) {
			out = append(out, c.(map[string]any))
		}
	}
	return out
}

var badgeRE = regexp.MustCompile(`^\*\*<sub><sub>!\[P([0-3]) Badge\]\(https://img\.shields\.io/badge/P[0-3]-[a-z]+\?style=flat\)</sub></sub>  (.+)\*\*\n\n`)

func TestCodexFindingsScriptFollowsTheClock(t *testing.T) {
	f := newFixture(t)
	req := f.postRequest("@codex review")
	reqID := int64(dig(t, req, "id").(float64))
	if f.s.PendingCodex() != 1 {
		t.Fatalf("pending = %d", f.s.PendingCodex())
	}
	reactions := fmt.Sprintf("/repos/acme/app/issues/comments/%d/reactions", reqID)
	if l := f.restList(reactions); len(l) != 0 {
		t.Fatalf("bot reacted before its time: %v", l)
	}

	f.clock.Advance(30 * time.Second)
	l := f.restList(reactions)
	if len(l) != 1 || dig(t, l[0], "content") != "eyes" || dig(t, l[0], "user", "id") != float64(CodexBotID) {
		t.Fatalf("eyes reaction = %v", l)
	}

	f.clock.Advance(30 * time.Second)
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	if len(bot) != 1 || !strings.HasPrefix(bot[0]["body"].(string), SummaryMarker) || !strings.Contains(bot[0]["body"].(string), "**Running**") {
		t.Fatalf("summary = %v", bot)
	}
	if bot[0]["created_at"] != stamp(testStart.Add(60*time.Second)) {
		t.Errorf("summary created_at = %v", bot[0]["created_at"])
	}
	if !strings.Contains(bot[0]["body"].(string), "`2222222`") {
		t.Errorf("summary does not name the head: %s", bot[0]["body"])
	}

	f.clock.Advance(30 * time.Second)
	reviews := f.restList("/repos/acme/app/pulls/7/reviews")
	if len(reviews) != 1 {
		t.Fatalf("reviews = %v", reviews)
	}
	rv := reviews[0]
	body := dig(t, rv, "body").(string)
	if dig(t, rv, "state") != "COMMENTED" || dig(t, rv, "commit_id") != shaB || !strings.HasPrefix(body, "### 💡 Codex Review") ||
		!strings.Contains(body, "\n**Reviewed commit:** `2222222222`\n") {
		t.Fatalf("review = %v", rv)
	}
	inline := f.restList("/repos/acme/app/pulls/7/comments")
	if len(inline) != 2 {
		t.Fatalf("inline comments = %d", len(inline))
	}
	for i, c := range inline {
		m := badgeRE.FindStringSubmatch(dig(t, c, "body").(string))
		if m == nil {
			t.Errorf("comment %d has no badge: %q", i, dig(t, c, "body"))
			continue
		}
		if m[1] != fmt.Sprint(DefaultFindings()[i].Priority) || m[2] != DefaultFindings()[i].Title {
			t.Errorf("comment %d badge P%s %q", i, m[1], m[2])
		}
		if dig(t, c, "pull_request_review_id") != dig(t, rv, "id") || dig(t, c, "original_commit_id") != shaB {
			t.Errorf("comment %d not attached to the review on the head: %v", i, c)
		}
	}
	if th := f.pr.Threads(); len(th) != 2 || th[0].NodeID == th[1].NodeID {
		t.Fatalf("each finding needs its own thread: %v", th)
	}

	f.clock.Advance(30 * time.Second)
	doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){comments(first:10){nodes{author{login} body createdAt updatedAt lastEditedAt}}}}}`, nil)
	nodes := dig(t, doc, "data", "repository", "pullRequest", "comments", "nodes").([]any)
	summary := nodes[1]
	if !strings.Contains(dig(t, summary, "body").(string), "✅ **Completed**") ||
		dig(t, summary, "lastEditedAt") != stamp(testStart.Add(120*time.Second)) ||
		dig(t, summary, "updatedAt") == dig(t, summary, "createdAt") {
		t.Fatalf("summary after completion = %v", summary)
	}
	if f.s.PendingCodex() != 0 {
		t.Errorf("pending = %d after the script ended", f.s.PendingCodex())
	}
}

func TestCodexZeroFindingsViaGraphQLAndSettle(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: ZeroFindings, SignOff: "Bravo."})
	doc := f.graphql(`mutation($id: ID!) { addComment(input: {subjectId: $id, body: "@codex review\n<!-- marker -->"}) { commentEdge { node { databaseId } } } }`,
		map[string]any{"id": f.pr.Data().NodeID})
	if _, ok := doc["errors"]; ok {
		t.Fatal(doc)
	}
	if n := f.s.Settle(); n != 4 {
		t.Fatalf("Settle ran %d steps, want 4", n)
	}
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	if len(bot) != 2 {
		t.Fatalf("bot comments = %v", bot)
	}
	want := "Codex Review: Didn't find any major issues. Bravo.\n\n**Reviewed commit:** `2222222222`"
	if !strings.HasPrefix(bot[1]["body"].(string), want) {
		t.Errorf("verdict = %q", bot[1]["body"])
	}
	if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 0 {
		t.Errorf("zero findings must not post a review: %v", l)
	}
	thumbs := f.restList("/repos/acme/app/issues/7/reactions")
	if len(thumbs) != 1 || dig(t, thumbs[0], "content") != "+1" {
		t.Errorf("PR reactions = %v", thumbs)
	}
}

func TestCodexZeroFindingsForAnotherCommit(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: ZeroFindings, ReviewedCommit: shaC})
	f.postRequest("@codex review")
	f.s.Settle()
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	if !strings.Contains(bot[len(bot)-1]["body"].(string), "**Reviewed commit:** `3333333333`") {
		t.Fatalf("verdict = %q", bot[len(bot)-1]["body"])
	}
}

func TestCodexNotices(t *testing.T) {
	for _, tc := range []struct {
		kind    ScenarioKind
		text    string
		summary string // "" when no summary comment is expected
	}{
		{NoticeUsageLimit, "You have reached your Codex usage limits for code reviews.", ""},
		{NoticeEnvironment, "To use Codex here, [create an environment for this repo]", ""},
		{NoticeError, "Codex Review: Something went wrong. Try again later by commenting", "⚠️ **Failed**"},
		{NoticeAccount, "To use Codex here, [create a Codex account and connect to github]", ""},
		{NoticeDeactivated, "This workspace is deactivated.", ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			f := newFixture(t)
			f.s.SetCodexScenario(Scenario{Kind: tc.kind})
			f.postRequest("@codex review")
			f.s.Settle()
			bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
			var notice, summary string
			for _, c := range bot {
				b := c["body"].(string)
				if strings.HasPrefix(b, SummaryMarker) {
					summary = b
				} else {
					notice = b
				}
			}
			if !strings.HasPrefix(notice, tc.text) {
				t.Errorf("notice = %q", notice)
			}
			if (tc.summary == "") != (summary == "") || !strings.Contains(summary, tc.summary) {
				t.Errorf("summary = %q, want it to contain %q", summary, tc.summary)
			}
			if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 0 {
				t.Errorf("a notice is not a review: %v", l)
			}
		})
	}
}

func TestCodexSilentNeverAnswers(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Silent})
	f.postRequest("@codex review")
	f.clock.Advance(24 * time.Hour)
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	if len(bot) != 1 || !strings.Contains(bot[0]["body"].(string), "**Running**") {
		t.Fatalf("bot comments = %v", bot)
	}
	if len(f.restList("/repos/acme/app/pulls/7/reviews")) != 0 {
		t.Error("silent bot reviewed")
	}
}

func TestCodexQueueAndSummaryEditedInPlace(t *testing.T) {
	f := newFixture(t)
	f.s.QueueCodexScenarios(Scenario{Kind: Findings}, Scenario{Kind: ZeroFindings})
	f.postRequest("@codex review")
	f.s.Settle()
	f.pr.Push(shaC)
	f.clock.Advance(time.Hour)
	f.postRequest("@codex review")
	f.s.Settle()
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	var summaries, verdicts int
	for _, c := range bot {
		b := c["body"].(string)
		switch {
		case strings.HasPrefix(b, SummaryMarker):
			summaries++
			if !strings.Contains(b, "`3333333`") {
				t.Errorf("summary still names the old head: %q", b)
			}
		case strings.HasPrefix(b, ZeroFindingsPrefix):
			verdicts++
			if !strings.Contains(b, "`3333333333`") {
				t.Errorf("verdict names the wrong commit: %q", b)
			}
		}
	}
	if summaries != 1 || verdicts != 1 {
		t.Fatalf("summaries=%d verdicts=%d: %v", summaries, verdicts, bot)
	}
	if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 1 || dig(t, l[0], "commit_id") != shaB {
		t.Errorf("round-1 review = %v", l)
	}
}

func TestCodexIgnoresBotsAndUntriggeredComments(t *testing.T) {
	f := newFixture(t)
	f.postRequest("looks good, no need for a codex review here")
	f.pr.PostComment(Comment{Author: Account{Login: "github-actions[bot]", Type: TypeBot}, Body: "@codex review"})
	if f.s.PendingCodex() != 0 {
		t.Fatalf("pending = %d", f.s.PendingCodex())
	}
	f.pr.AddComment(Comment{Body: "@codex review"}) // seeded history never runs the script
	if f.s.PendingCodex() != 0 {
		t.Fatalf("seeded comment woke the bot")
	}
	f.pr.PostComment(Comment{Body: "@Codex Review"})
	if f.s.PendingCodex() != 1 {
		t.Fatalf("PostComment with a trigger did not wake the bot")
	}
}

func TestLookalikeAccount(t *testing.T) {
	f := newFixture(t)
	fake := f.s.AddLookalike(4242, TypeBot)
	if fake.Login != CodexBotLogin || fake.ID == CodexBotID {
		t.Fatalf("lookalike = %+v", fake)
	}
	f.s.SetCodexScenario(Scenario{Kind: ZeroFindings, Actor: fake})
	f.postRequest("@codex review")
	f.s.Settle()
	list := f.restList("/repos/acme/app/issues/7/comments")
	last := list[len(list)-1]
	if dig(t, last, "user", "login") != CodexBotLogin || dig(t, last, "user", "id") != 4242.0 || dig(t, last, "user", "type") != "Bot" {
		t.Fatalf("verdict author = %v", dig(t, last, "user"))
	}
	if len(botComments(t, list)) != 0 {
		t.Error("the real bot posted although the impostor was scripted")
	}
	doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){comments(last:1){nodes{author{login ... on Bot{databaseId}}}}}}}`, nil)
	a := dig(t, doc, "data", "repository", "pullRequest", "comments", "nodes", 0, "author")
	if dig(t, a, "login") != CodexAppSlug || dig(t, a, "databaseId") != 4242.0 {
		t.Errorf("GraphQL impostor = %v", a)
	}
	user := f.s.AddLookalike(4343, TypeUser)
	c := f.pr.AddComment(Comment{Author: user, Body: ZeroFindingsPrefix})
	if got := f.pr.Comments(); got[len(got)-1].Author.Type != TypeUser || got[len(got)-1].ID != c.ID {
		t.Errorf("user lookalike comment = %+v", got[len(got)-1])
	}
	// Seeding by login alone resolves to the first registered account: the real bot.
	byLogin := f.pr.AddComment(Comment{Author: Account{Login: CodexBotLogin}, Body: "x"})
	if byLogin.Author.ID != CodexBotID {
		t.Errorf("login lookup picked %d", byLogin.Author.ID)
	}
}

func TestCodexLeadingNewlineVariant(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Findings, LeadingNewline: true, Findings: []Finding{{Priority: 0, Title: "Boom", Body: "Bad.", Path: "x.go", Line: 1}}})
	f.postRequest("@codex review")
	f.s.Settle()
	rv := f.pr.Reviews()
	if len(rv) != 1 || !strings.HasPrefix(rv[0].Body, "\n### 💡 Codex Review") {
		t.Fatalf("review = %+v", rv)
	}
	if c := f.pr.ReviewComments(); len(c) != 1 || !strings.Contains(c[0].Body, "![P0 Badge](https://img.shields.io/badge/P0-red?style=flat)") {
		t.Fatalf("comments = %+v", c)
	}
}

// Only "@codex review" starts a review; other @codex wording starts a cloud
// task, which answers with a task reply, not a review, and leaves the
// scripted review queue alone.
func TestCodexAnswersOtherMentionsAsATask(t *testing.T) {
	f := newFixture(t)
	f.s.QueueCodexScenarios(Scenario{Kind: Findings})
	for _, body := range []string{"@codex please review this pull request.", "Thanks! @codex can you fix the lint?"} {
		f.postRequest(body)
	}
	f.postRequest("> @codex review\nquoting the old request does nothing")
	f.s.Settle()
	bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
	if len(bot) != 2 {
		t.Fatalf("want two task replies, got %v", bot)
	}
	for _, c := range bot {
		b := c["body"].(string)
		if !strings.HasPrefix(b, "### Summary\n") || !strings.Contains(b, "https://chatgpt.com/codex/tasks/task_e_") {
			t.Errorf("not a task reply: %q", b)
		}
	}
	if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 0 {
		t.Fatalf("a mention was reviewed: %v", l)
	}
	f.postRequest("@codex review")
	f.s.Settle()
	if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 1 {
		t.Fatalf("the queued findings review did not answer the trigger: %v", l)
	}
}

func TestCodexCleanByReaction(t *testing.T) {
	for _, onPR := range []bool{false, true} {
		f := newFixture(t)
		f.s.SetCodexScenario(Scenario{Kind: CleanByReaction, ThumbsOnPR: onPR, SecurityReview: true})
		req := f.postRequest("@codex review")
		f.s.Settle()
		bot := botComments(t, f.restList("/repos/acme/app/issues/7/comments"))
		if len(bot) != 1 {
			t.Fatalf("a clean round posts no comment but the summary: %v", bot)
		}
		b := bot[0]["body"].(string)
		if !strings.Contains(b, "| 📝 **Code Review** | ✅ **Completed**") || !strings.Contains(b, "`2222222`") ||
			!strings.Contains(b, "| 🔒 **Security Review** | ✅ **Completed**") || !strings.HasPrefix(b, SummaryMarker+"\n"+SecurityMarker) {
			t.Errorf("summary = %q", b)
		}
		path := fmt.Sprintf("/repos/acme/app/issues/comments/%d/reactions", int64(dig(t, req, "id").(float64)))
		if onPR {
			path = "/repos/acme/app/issues/7/reactions"
		}
		var thumbs bool
		for _, r := range f.restList(path) {
			thumbs = thumbs || dig(t, r, "content") == "+1" && dig(t, r, "user", "id") == float64(CodexBotID) && dig(t, r, "user", "type") == "Bot"
		}
		if !thumbs {
			t.Errorf("on PR %v: no 👍 by the bot (type Bot) on %s", onPR, path)
		}
		if l := f.restList("/repos/acme/app/pulls/7/reviews"); len(l) != 0 {
			t.Errorf("reviews %v", l)
		}
	}
}

func TestCodexFindingsComment(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: FindingsComment})
	f.postRequest("@codex review")
	f.s.Settle()
	var body string
	for _, c := range botComments(t, f.restList("/repos/acme/app/issues/7/comments")) {
		if b := c["body"].(string); strings.HasPrefix(b, ReviewHeading) {
			body = b
		}
	}
	for _, fd := range DefaultFindings() {
		if !strings.Contains(body, "https://github.com/acme/app/blob/"+shaB+"/"+fd.Path+"#L") || !strings.Contains(body, Badge(fd.Priority)) {
			t.Errorf("finding %q missing from %q", fd.Title, body)
		}
	}
	if len(f.pr.Threads()) != 0 || len(f.restList("/repos/acme/app/pulls/7/reviews")) != 0 {
		t.Error("a findings comment opens no review or thread")
	}
}

func TestScenarioNamesRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range ScenarioKinds() {
		name := k.String()
		if seen[name] || strings.HasPrefix(name, "ScenarioKind(") {
			t.Fatalf("kind %d has no unique name: %q", int(k), name)
		}
		seen[name] = true
		if back, ok := ParseScenarioKind(name); !ok || back != k {
			t.Errorf("%q parses to %v %v", name, back, ok)
		}
	}
	if _, ok := ParseScenarioKind("nope"); ok {
		t.Error("unknown name parsed")
	}
}
