package ghsim

import (
	"fmt"
	"regexp"
	"time"
)

// ScenarioKind is how the scripted Codex bot answers a review request.
type ScenarioKind int

const (
	// Findings: a COMMENTED review on the requested head with one inline
	// comment (and thread) per finding.
	Findings ScenarioKind = iota
	// ZeroFindings: an issue comment "Codex Review: Didn't find any major
	// issues. ..." naming the reviewed commit, plus 👍 on the PR.
	ZeroFindings
	// NoticeUsageLimit: "You have reached your Codex usage limits ...".
	NoticeUsageLimit
	// NoticeEnvironment: "To use Codex here, create an environment ...".
	NoticeEnvironment
	// NoticeError: "Codex Review: Something went wrong ..." (summary Failed).
	NoticeError
	// Silent: 👀 and a Running summary, then nothing (a request that times out).
	Silent
	// CleanByReaction: Codex's usual clean round — no comment at all; the
	// summary is edited to ✅ Completed for the head and the bot reacts 👍 on
	// the request comment (on the PR with Scenario.ThumbsOnPR).
	CleanByReaction
	// FindingsComment: the findings arrive as one issue comment (heading,
	// then a blob link + badge + title block per finding), no review threads.
	FindingsComment
	// NoticeAccount: "To use Codex here, create a Codex account and connect
	// to github".
	NoticeAccount
	// NoticeDeactivated: "This workspace is deactivated. ...".
	NoticeDeactivated
	// FailedSummary: 👀, Running, then the summary's Code Review row ⚠️
	// Failed for the head and nothing else.
	FailedSummary
)

// scenarioNames are the stable names of the kinds, for command lines
// ("gh-prloop sim --scenario findings,clean-by-reaction").
var scenarioNames = map[ScenarioKind]string{
	Findings: "findings", ZeroFindings: "clean", CleanByReaction: "clean-by-reaction",
	FindingsComment: "findings-comment", NoticeUsageLimit: "notice-usage-limit",
	NoticeEnvironment: "notice-environment", NoticeAccount: "notice-account",
	NoticeDeactivated: "notice-deactivated", NoticeError: "notice-error",
	FailedSummary: "failed-summary", Silent: "silence",
}

// String is the kind's stable name.
func (k ScenarioKind) String() string {
	if n, ok := scenarioNames[k]; ok {
		return n
	}
	return fmt.Sprintf("ScenarioKind(%d)", int(k))
}

// ScenarioKinds lists every kind, in declaration order.
func ScenarioKinds() []ScenarioKind {
	return []ScenarioKind{Findings, ZeroFindings, NoticeUsageLimit, NoticeEnvironment, NoticeError, Silent,
		CleanByReaction, FindingsComment, NoticeAccount, NoticeDeactivated, FailedSummary}
}

// ParseScenarioKind reads a kind by its stable name.
func ParseScenarioKind(name string) (ScenarioKind, bool) {
	for k, n := range scenarioNames {
		if n == name {
			return k, true
		}
	}
	return 0, false
}

// Finding is one inline comment of a Findings review.
type Finding struct {
	Priority  int // 0..3, rendered as the P0..P3 badge
	Title     string
	Body      string
	Path      string
	Line      int
	StartLine int
}

// Scenario scripts one answer of the Codex bot.
type Scenario struct {
	Kind     ScenarioKind
	Findings []Finding // Findings; nil uses DefaultFindings()
	SignOff  string    // ZeroFindings; "" uses "Keep it up!"
	// ReviewedCommit makes a ZeroFindings verdict name this SHA instead of
	// the requested head (a verdict for another commit).
	ReviewedCommit string
	// StepDelay is simulated time between the bot's steps (default 30s):
	// 👀 at +1, summary Running at +2, verdict at +3, summary edit at +4.
	StepDelay time.Duration
	// Actor performs the script; zero means the real Codex bot. Set it to a
	// look-alike account to script an impostor.
	Actor Account
	// LeadingNewline starts the findings review body with "\n", a form seen
	// on real reviews, to test prefix matching that trims.
	LeadingNewline bool
	// ThumbsOnPR puts a CleanByReaction 👍 on the PR instead of the request.
	ThumbsOnPR bool
	// SecurityReview adds the codex-security-review:v1 marker and a 🔒
	// Security Review row (Running, then Completed) to the summary.
	SecurityReview bool
}

// DefaultFindings is what a Findings scenario reports when it lists none.
func DefaultFindings() []Finding {
	return []Finding{
		{Priority: 1, Title: "Reset the retry budget after a successful attempt", Path: "internal/retry/budget.go", Line: 42,
			Body: "`Budget.Take` decrements the remaining attempts but nothing restores them when a call succeeds, so after a few transient failures every later call fails immediately with `ErrBudgetExhausted`, even when the upstream has recovered."},
		{Priority: 2, Title: "Cover the exhausted-budget path in tests", Path: "internal/retry/budget_test.go", Line: 17, StartLine: 12,
			Body: "The new tests only exercise the happy path. Add a case where the budget reaches zero so that the error wrapping in `Take` is checked."},
	}
}

// reviewTrigger is the documented review request: a line that starts with
// "@codex review". Any other mention of @codex starts a Codex cloud task,
// which answers as a task does (taskMention). Quoted lines never count.
var (
	reviewTrigger = regexp.MustCompile(`(?im)^[ \t]*@codex[ \t]+review(?:[ \t.!]|$)`)
	taskMention   = regexp.MustCompile(`(?im)^[^>\n]*(?:^|[^\w@-])@codex\b`)
)

type codexState struct {
	defaultScenario Scenario
	queue           []Scenario
	jobs            []*codexJob
}

type codexJob struct {
	pull    *pullState
	request *Comment
	head    string
	sc      Scenario
	actor   *Account
	steps   []codexStep
	next    int
}

type codexStep struct {
	at  time.Time
	run func(s *Server, j *codexJob, at time.Time)
}

// SetCodexScenario sets the scenario used when the queue is empty.
func (s *Server) SetCodexScenario(sc Scenario) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codex.defaultScenario = sc
}

// QueueCodexScenarios appends scenarios consumed one per review request,
// in order, before the default applies again (e.g. Findings then ZeroFindings
// for a two-round loop).
func (s *Server) QueueCodexScenarios(sc ...Scenario) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codex.queue = append(s.codex.queue, sc...)
}

// AdvanceCodex runs the next pending step of every bot job now, whatever
// the clock says, and returns how many steps ran.
func (s *Server) AdvanceCodex() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	n := s.advanceCodexLocked(now)
	for _, j := range s.codex.jobs {
		if j.next < len(j.steps) {
			at := j.steps[j.next].at
			if at.After(now) {
				at = now
			}
			j.steps[j.next].run(s, j, at)
			j.next++
			n++
		}
	}
	s.pruneCodexLocked()
	return n
}

// Settle runs every pending bot step and returns how many ran.
func (s *Server) Settle() int {
	total := 0
	for {
		n := s.AdvanceCodex()
		if n == 0 {
			return total
		}
		total += n
	}
}

// PendingCodex is the number of review requests the bot has not finished.
func (s *Server) PendingCodex() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.codex.jobs)
}

// advanceCodexLocked runs every step whose time has come, stamped with its
// scheduled time, so a clock jump replays the bot's history faithfully.
func (s *Server) advanceCodexLocked(now time.Time) int {
	n := 0
	for _, j := range s.codex.jobs {
		for j.next < len(j.steps) && !j.steps[j.next].at.After(now) {
			j.steps[j.next].run(s, j, j.steps[j.next].at)
			j.next++
			n++
		}
	}
	s.pruneCodexLocked()
	return n
}

func (s *Server) pruneCodexLocked() {
	live := s.codex.jobs[:0]
	for _, j := range s.codex.jobs {
		if j.next < len(j.steps) {
			live = append(live, j)
		}
	}
	s.codex.jobs = live
}

// commentPostedLocked wakes the bot for a comment by anyone but a bot:
// "@codex review" starts the next scripted review; any other "@codex"
// mention starts a cloud task, which does not consume the review queue.
func (s *Server) commentPostedLocked(p *pullState, c *Comment) {
	if c.Author.Type == TypeBot {
		return
	}
	if !reviewTrigger.MatchString(c.Body) {
		if taskMention.MatchString(c.Body) {
			s.startTaskLocked(p, c)
		}
		return
	}
	sc := s.codex.defaultScenario
	if len(s.codex.queue) > 0 {
		sc, s.codex.queue = s.codex.queue[0], s.codex.queue[1:]
	}
	s.startCodexLocked(p, c, sc)
}

// startCodexLocked schedules the bot's answer to request comment c. Steps
// are timed from the request's creation, so a request seeded in the past
// is answered in the past.
func (s *Server) startCodexLocked(p *pullState, c *Comment, sc Scenario) {
	actor := CodexBot()
	if sc.Actor.ID != 0 || sc.Actor.Login != "" {
		actor = sc.Actor
	}
	j := &codexJob{pull: p, request: c, head: s.headSHALocked(p), sc: sc, actor: s.accountLocked(actor)}
	d := sc.StepDelay
	if d <= 0 {
		d = 30 * time.Second
	}
	var plan []func(*Server, *codexJob, time.Time)
	switch sc.Kind {
	case Findings:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepFindings, stepSummary(summaryCompleted))
	case ZeroFindings:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepZeroFindings, stepSummary(summaryCompleted))
	case CleanByReaction:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepSummary(summaryCompleted), stepThumbsUp)
	case FindingsComment:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepFindingsComment, stepSummary(summaryCompleted))
	case NoticeUsageLimit:
		plan = append(plan, stepNotice(NoticeUsageLimitText))
	case NoticeEnvironment:
		plan = append(plan, stepNotice(NoticeEnvironmentText))
	case NoticeAccount:
		plan = append(plan, stepNotice(NoticeAccountText))
	case NoticeDeactivated:
		plan = append(plan, stepNotice(NoticeDeactivatedText))
	case NoticeError:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepNotice(NoticeErrorText), stepSummary(summaryFailed))
	case FailedSummary:
		plan = append(plan, stepEyes, stepSummary(summaryRunning), stepSummary(summaryFailed))
	case Silent:
		plan = append(plan, stepEyes, stepSummary(summaryRunning))
	}
	for i, run := range plan {
		j.steps = append(j.steps, codexStep{at: c.CreatedAt.Add(time.Duration(i+1) * d), run: run})
	}
	s.codex.jobs = append(s.codex.jobs, j)
}

func stepEyes(s *Server, j *codexJob, at time.Time) {
	list := j.pull.commentReacts[j.request.ID]
	s.addReactionLocked(&list, Reaction{Content: "eyes", User: *j.actor, CreatedAt: at})
	j.pull.commentReacts[j.request.ID] = list
}

// stepSummary posts the summary comment, or edits the bot's existing one in
// place: GitHub shows one summary per PR, updated for each review.
func stepSummary(status summaryStatus) func(*Server, *codexJob, time.Time) {
	return func(s *Server, j *codexJob, at time.Time) {
		body := summaryBody(status, at, j.head, j.sc.SecurityReview)
		for _, c := range j.pull.comments {
			if c.Author.ID == j.actor.ID && len(c.Body) >= len(SummaryMarker) && c.Body[:len(SummaryMarker)] == SummaryMarker {
				c.Body, c.UpdatedAt, c.LastEditedAt = body, at, at
				j.pull.pr.UpdatedAt = maxTime(j.pull.pr.UpdatedAt, at)
				return
			}
		}
		s.addCommentLocked(j.pull, Comment{Author: *j.actor, Body: body, CreatedAt: at})
	}
}

func stepFindings(s *Server, j *codexJob, at time.Time) {
	findings := j.sc.Findings
	if findings == nil {
		findings = DefaultFindings()
	}
	rv := s.addReviewLocked(j.pull, Review{
		Author: *j.actor, State: "COMMENTED", CommitID: j.head, SubmittedAt: at,
		Body: findingsReviewBody(j.head, j.sc.LeadingNewline),
	})
	for _, f := range findings {
		_, _ = s.addThreadLocked(j.pull, ThreadSpec{Root: ReviewComment{
			ReviewID: rv.ID, Author: *j.actor, Body: findingBody(f), Path: f.Path,
			Line: f.Line, StartLine: f.StartLine, CommitID: j.head, OriginalCommitID: j.head, CreatedAt: at,
		}})
	}
}

func stepZeroFindings(s *Server, j *codexJob, at time.Time) {
	signOff := j.sc.SignOff
	if signOff == "" {
		signOff = "Keep it up!"
	}
	sha := j.head
	if j.sc.ReviewedCommit != "" {
		sha = j.sc.ReviewedCommit
	}
	s.addCommentLocked(j.pull, Comment{Author: *j.actor, Body: zeroFindingsBody(signOff, sha), CreatedAt: at})
	s.addReactionLocked(&j.pull.reactions, Reaction{Content: "+1", User: *j.actor, CreatedAt: at})
}

// stepThumbsUp is a clean round's only verdict: 👍 on the request comment,
// or on the PR.
func stepThumbsUp(s *Server, j *codexJob, at time.Time) {
	if j.sc.ThumbsOnPR {
		s.addReactionLocked(&j.pull.reactions, Reaction{Content: "+1", User: *j.actor, CreatedAt: at})
		return
	}
	list := j.pull.commentReacts[j.request.ID]
	s.addReactionLocked(&list, Reaction{Content: "+1", User: *j.actor, CreatedAt: at})
	j.pull.commentReacts[j.request.ID] = list
}

func stepFindingsComment(s *Server, j *codexJob, at time.Time) {
	findings := j.sc.Findings
	if findings == nil {
		findings = DefaultFindings()
	}
	s.addCommentLocked(j.pull, Comment{Author: *j.actor, Body: findingsCommentBody(j.pull.repo.fullName(), j.head, findings), CreatedAt: at})
}

// startTaskLocked answers a non-review mention the way a Codex cloud task
// does: 👀 on the mention, then a task reply (summary, testing, a link to
// the task). It is not a review and names no commit.
func (s *Server) startTaskLocked(p *pullState, c *Comment) {
	j := &codexJob{pull: p, request: c, head: s.headSHALocked(p), actor: s.accountLocked(CodexBot())}
	d := 30 * time.Second
	for i, run := range []func(*Server, *codexJob, time.Time){stepEyes, stepTaskReply} {
		j.steps = append(j.steps, codexStep{at: c.CreatedAt.Add(time.Duration(i+1) * d), run: run})
	}
	s.codex.jobs = append(s.codex.jobs, j)
}

func stepTaskReply(s *Server, j *codexJob, at time.Time) {
	s.addCommentLocked(j.pull, Comment{Author: *j.actor, Body: taskReplyBody(j.request.ID), CreatedAt: at})
}

func stepNotice(text string) func(*Server, *codexJob, time.Time) {
	return func(s *Server, j *codexJob, at time.Time) {
		s.addCommentLocked(j.pull, Comment{Author: *j.actor, Body: text, CreatedAt: at})
	}
}
