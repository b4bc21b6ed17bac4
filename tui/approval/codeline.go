package approval

import (
	"strings"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// codeLine is sanitize.Line for a line of a file: it keeps leading and
// trailing whitespace, because indentation is part of what is approved
// (sanitize.Line trims it). Everything else sanitize removes is removed
// here too, by sanitize.Text itself.
func codeLine(s string, width int) string {
	if width <= 0 {
		return ""
	}
	// A minified file can have a line of megabytes; no visible cell takes
	// more than a few dozen bytes, so cut before sanitizing. A sequence cut
	// in half is still removed whole by Text.
	if limit := (width + 1) * 64; len(s) > limit {
		for limit > 0 && !utf8.RuneStart(s[limit]) {
			limit--
		}
		s = s[:limit]
	}
	t := sanitize.Text(s)
	t = strings.ReplaceAll(t, "\n", " ")
	return common.Fit(t, width)
}
