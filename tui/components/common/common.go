// Package common is what every component embeds: the shared styles and the
// size it was last given (the soft-serve pattern).
package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Common is embedded by every component.
type Common struct {
	Styles *theme.Styles
	Width  int
	Height int
}

// SetSize records the size; negative sizes (a layout that ran out of room)
// become zero so that no component ever computes with them.
func (c *Common) SetSize(width, height int) {
	c.Width, c.Height = max(width, 0), max(height, 0)
}

// Fit cuts s (which may carry the renderer's own styling) to width cells.
// Remote text is already sanitized and measured by then; Fit is the last
// guard that no composed line is wider than its box.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	out := ansi.Truncate(s, width, "…")
	// Truncate and StringWidth can disagree about a cluster (see
	// sanitize.Line); the box is measured with StringWidth.
	for n := width - 1; n >= 0 && ansi.StringWidth(out) > width; n-- {
		out = ansi.Truncate(s, n, "") + "…"
	}
	return out
}

// ShortSHA is the conventional 7-character abbreviation of a commit id,
// sanitized. It is a prefix, not a truncation: no ellipsis.
func ShortSHA(sha string) string {
	return ansi.Truncate(sanitize.Line(sha, 64), 7, "")
}

// Pad right-pads plain s with spaces to width cells.
func Pad(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
