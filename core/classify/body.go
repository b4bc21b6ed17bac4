package classify

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// The bot's fixed phrases (see testdata/README.md for where each was seen).
const (
	zeroFindingsSentence = "Codex Review: Didn't find any major issues."
	summaryMarker        = "<!-- codex-pull-request-review-summary -->"
	findingsHeading      = "### 💡 Codex Review"
)

// reReviewedCommit finds the bot's line: **Reviewed commit:** followed by
// the abbreviated hex in backticks.
// Seven hex digits is git's shortest default abbreviation; anything shorter
// cannot be trusted to name one commit.
var reReviewedCommit = regexp.MustCompile("\\*\\*Reviewed commit:\\*\\*[ \\t]*`([0-9a-fA-F]{7,40})`")

// reviewedCommit returns the lowercase reviewed-commit prefix a body names.
func reviewedCommit(body string) (string, bool) {
	m := reReviewedCommit.FindStringSubmatch(body)
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

func trimLead(body string) string { return strings.TrimLeft(body, " \t\r\n") }

// opensWithZeroFindings: the sentence must open the body; the same words
// quoted later inside a longer body are not the bot's verdict.
func opensWithZeroFindings(body string) bool {
	return strings.HasPrefix(trimLead(body), zeroFindingsSentence)
}

// isCodexReview: a body that is one of the bot's review verdict shapes.
func isCodexReview(body string) bool {
	b := trimLead(body)
	return strings.HasPrefix(b, "Codex Review") || strings.HasPrefix(b, findingsHeading)
}

func isSummary(body string) bool { return strings.HasPrefix(trimLead(body), summaryMarker) }

// Summary states.
const (
	SummaryRunning   = "running"
	SummaryCompleted = "completed"
)

// reSummaryRow reads one table row of the summary comment: its status cell
// and the abbreviated commit in the following cell.
var reSummaryRow = regexp.MustCompile("^\\|[^|]*\\|([^|]*)\\|\\s*`([0-9a-fA-F]{7,40})`\\s*\\|")

// summaryState reads the state of the rows about head. A row for another
// commit says nothing about this one. Any running row wins: one review still
// in flight means the verdict is not complete.
func summaryState(body, head string) string {
	state := ""
	for _, line := range strings.Split(body, "\n") {
		m := reSummaryRow.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil || !prefixOf(strings.ToLower(m[2]), head) {
			continue
		}
		switch {
		case strings.Contains(m[1], "**Running**"):
			return SummaryRunning
		case strings.Contains(m[1], "**Completed**"):
			state = SummaryCompleted
		}
	}
	return state
}

// noticeKind classifies a service message. Only bodies that are not review
// verdicts are considered, and the caller only asks for issue comments and
// reviews: an inline finding may well discuss these very phrases
// (testdata/finding_p2_usage_wording.md).
func noticeKind(body string) string {
	if isCodexReview(body) || isSummary(body) {
		return ""
	}
	b := strings.ToLower(body)
	switch {
	case strings.Contains(b, "codex usage limits") && strings.Contains(b, "reached"):
		return NoticeUsageLimit
	case strings.Contains(b, "create an environment for this repo"):
		return NoticeEnvironment
	case strings.Contains(b, "something went wrong"), strings.Contains(b, "codex couldn't complete this request"):
		return NoticeError
	}
	return ""
}

// maxNoticeText bounds what the evaluator quotes from a notice.
const maxNoticeText = 500

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
