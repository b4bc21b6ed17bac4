package evaluate

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/schema"
)

// noticeQuoteRunes bounds how much of a notice a result quotes.
const noticeQuoteRunes = 200

// Refine turns an ambiguous verdict into codex-notice when a qualifying
// response of s is a known Codex service notice (usage limit, missing
// environment, error), quoting the notice so the human sees why Codex did
// not review. Any other result is returned unchanged. The state alone cannot
// tell a notice from an unknown comment, so the caller passes classify's
// notices for the same observation.
func Refine(r Result, s schema.State, notices []classify.Notice) Result {
	ambiguous := (r.Action == ActionHalt && r.Reason == ReasonAmbiguousResponse) ||
		(r.Action == ActionReport && r.Classification == ClassAmbiguous)
	if !ambiguous {
		return r
	}
	// The summary's ⚠️ Failed row says less than the bot's own notice text
	// when both are there, so a text notice is quoted first.
	for _, summaryRow := range []bool{false, true} {
		for _, resp := range s.Responses {
			if !qualifies(s, resp) {
				continue
			}
			for _, n := range notices {
				if n.Source == resp.Source && n.ID == resp.ID && (n.Kind == classify.NoticeFailed) == summaryRow {
					r.Reason = ReasonCodexNotice
					r.Message = fmt.Sprintf("Codex posted a %s notice instead of a review (%s %s): %s",
						n.Kind, resp.Source, resp.ID, quoteNotice(n.Text))
					return r
				}
			}
		}
	}
	return r
}

// quoteNotice clips remote text and quotes it with Go escapes, so a control
// sequence in a comment can never reach the terminal as one.
func quoteNotice(text string) string {
	runes := []rune(text)
	if len(runes) > noticeQuoteRunes {
		return fmt.Sprintf("%q…", string(runes[:noticeQuoteRunes]))
	}
	return fmt.Sprintf("%q", text)
}
