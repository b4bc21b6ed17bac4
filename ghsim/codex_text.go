package ghsim

import (
	"fmt"
	"strings"
	"time"
)

// The wording below reproduces what chatgpt-codex-connector[bot] posts, as
// seen in public repositories (2025-2026) that quote it in test fixtures
// and archives. Kept verbatim, trailing spaces included, so that parsers
// written against the simulator survive the real thing.

// SummaryMarker opens the bot's review-summary comment.
const SummaryMarker = "<!-- codex-pull-request-review-summary -->"

// ZeroFindingsPrefix opens the bot's no-findings verdict.
const ZeroFindingsPrefix = "Codex Review: Didn't find any major issues."

// ReviewHeading opens the body of the bot's findings review.
const ReviewHeading = "### 💡 Codex Review"

const reviewAbout = `<details> <summary>ℹ️ About Codex in GitHub</summary>
<br/>

[Your team has set up Codex to review pull requests in this repo](https://chatgpt.com/codex/cloud/settings/general). Reviews are triggered when you
- Open a pull request for review
- Mark a draft as ready
- Comment "@codex review".

If Codex has suggestions, it will comment; otherwise it will react with 👍.




Codex can also answer questions or update the PR. Try commenting "@codex address that feedback".
            
</details>`

const summaryAbout = `<details> <summary>ℹ️ About Codex in GitHub</summary>
<br/>

[Your team has set up Codex to review pull requests in this repo](https://chatgpt.com/codex/cloud/settings/general). Reviews are triggered when you
- Open a pull request for review
- Mark a draft as ready
- Comment "@codex review" or "@codex security review".

Codex reacts with 👀 while any review is running, comments if it has suggestions, and reacts with 👍 once all reviews finish with no findings.

</details>`

// Notice bodies: the bot's "no verdict" answers.
const (
	NoticeUsageLimitText  = "You have reached your Codex usage limits for code reviews. You can see your limits in the [Codex usage dashboard](https://chatgpt.com/codex/cloud/settings/usage)."
	NoticeEnvironmentText = "To use Codex here, [create an environment for this repo](https://chatgpt.com/codex/cloud/settings/environments)."
	NoticeErrorText       = "Codex Review: Something went wrong. Try again later by commenting \"@codex review\".\n\n```\nAn unknown error occurred\n```"
	NoticeAccountText     = "To use Codex here, [create a Codex account and connect to github](https://chatgpt.com/codex/settings/connectors)."
	NoticeDeactivatedText = "This workspace is deactivated. Select an active workspace and try again."
)

// SecurityMarker opens the security-review marker that follows SummaryMarker
// when a security review runs.
const SecurityMarker = "<!-- codex-security-review:v1"

type summaryStatus string

const (
	summaryRunning   summaryStatus = "🔄 **Running** since"
	summaryCompleted summaryStatus = "✅ **Completed**"
	summaryFailed    summaryStatus = "⚠️ **Failed**"
)

// summaryBody is the summary comment for one state of the code review. With
// security, the security-review marker and row follow; that review runs
// alongside and completes with the code review.
func summaryBody(status summaryStatus, at time.Time, sha string, security bool) string {
	when := at.UTC().Format("2006-01-02T15:04:05.000000Z")
	row := func(kind string, st summaryStatus) string {
		return fmt.Sprintf("| %s | %s <relative-time datetime=%q>%s</relative-time> | `%s` | Manual request |\n",
			kind, st, when, when, short(sha, 7))
	}
	head := SummaryMarker + "\n"
	rows := row("📝 **Code Review**", status)
	if security {
		sec := summaryRunning
		if status != summaryRunning {
			sec = summaryCompleted
		}
		head += fmt.Sprintf("%s {\"commit\":%q,\"status\":%q} -->\n", SecurityMarker, short(sha, 7), map[summaryStatus]string{summaryRunning: "running", summaryCompleted: "completed"}[sec])
		rows += row("🔒 **Security Review**", sec)
	}
	return head + "\n## Codex Review Summary\n\n" +
		"This comment shows the latest Codex review activity on this pull request.\n\n" +
		"| Review | Status | Commit | Review trigger |\n| --- | --- | --- | --- |\n" +
		rows + "\n\n\n" + summaryAbout + "\n"
}

func findingsReviewBody(sha string, leadingNewline bool) string {
	body := ReviewHeading + "\n\nHere are some automated review suggestions for this pull request.\n\n" +
		"**Reviewed commit:** `" + short(sha, 10) + "`\n    \n\n" + reviewAbout
	if leadingNewline {
		body = "\n" + body
	}
	return body
}

var badgeColor = map[int]string{0: "red", 1: "orange", 2: "yellow", 3: "blue"}

// Badge is the priority badge markup that opens an inline finding.
func Badge(priority int) string {
	return fmt.Sprintf("![P%d Badge](https://img.shields.io/badge/P%d-%s?style=flat)", priority, priority, badgeColor[priority])
}

func findingBody(f Finding) string {
	return fmt.Sprintf("**<sub><sub>%s</sub></sub>  %s**\n\n%s\n\nUseful? React with 👍 / 👎.",
		Badge(f.Priority), f.Title, strings.TrimSpace(f.Body))
}

// findingsCommentBody is findings posted as one issue comment: the review
// heading, then per finding a blob link to its lines at the reviewed commit,
// the priority badge and title, and the explanation.
func findingsCommentBody(repo, sha string, findings []Finding) string {
	var b strings.Builder
	b.WriteString(ReviewHeading + "\n\nHere are some automated review suggestions for this pull request.\n\n")
	b.WriteString("**Reviewed commit:** `" + short(sha, 10) + "`\n\n")
	for _, f := range findings {
		start := f.StartLine
		if start == 0 {
			start = f.Line
		}
		fmt.Fprintf(&b, "https://github.com/%s/blob/%s/%s#L%d-L%d\n", repo, sha, f.Path, start, f.Line)
		b.WriteString(findingBody(f) + "\n\n")
	}
	b.WriteString(reviewAbout)
	return b.String()
}

// taskReplyBody is how a Codex cloud task answers a mention that is not the
// review trigger: what it did, what it ran, and a link to the task.
func taskReplyBody(mentionID int64) string {
	return fmt.Sprintf("### Summary\n* Looked into the request in this pull request's conversation; no changes were committed.\n\n"+
		"### Testing\n* ⚠️ Not run (no code changes)\n\n"+
		"[View task →](https://chatgpt.com/codex/tasks/task_e_%024x)", mentionID)
}

func zeroFindingsBody(signOff, sha string) string {
	return ZeroFindingsPrefix + " " + signOff + "\n\n**Reviewed commit:** `" + short(sha, 10) + "`\n\n" + reviewAbout
}
