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

func isSummary(body string) bool { return strings.HasPrefix(trimLead(body), summaryMarker) }

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
