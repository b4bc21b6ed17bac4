package approval

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Approved content is shown whole: a line of a file (or a path) is escaped,
// never stripped (sanitize.EscapeSegments), and wrapped into as many rows as
// it needs, never cut, so that `exfiltrate()` at column 150 is on screen
// and `pass\U000E0041word` reads as what it is. Indentation is kept (a tab
// is four cells).

var codeEscape = sanitize.EscapeOptions{Tab: "    "}

// painter draws text in one style by concatenation: the style's opening
// and closing sequences are taken once from lipgloss. A large diff is tens
// of thousands of rows, and lipgloss.Style.Render costs microseconds a
// call. Only for styles of colour and weight (no padding, width, border).
type painter struct{ pre, post string }

func paint(st lipgloss.Style) painter {
	const mark = "\u2063" // INVISIBLE SEPARATOR: never in a styled text of ours
	r := st.Render(mark)
	i := strings.Index(r, mark)
	if i < 0 {
		return painter{}
	}
	return painter{pre: r[:i], post: r[i+len(mark):]}
}

// Render is st.Render(s) for the style the painter was made from.
func (p painter) Render(s string) string {
	if s == "" {
		return ""
	}
	return p.pre + s + p.post
}

// codeRows draws s in rows of at most width cells: plain text in text,
// every escape token in warn. A token is never split across rows unless it
// is wider than a row.
func codeRows(s string, width int, text, warn painter) []string {
	if width <= 0 {
		return nil
	}
	if plainASCII(s) {
		// Most code: nothing to escape, one cell per byte. Style each row
		// once (lipgloss is the cost of drawing a large diff).
		var rows []string
		for len(s) > width {
			rows = append(rows, text.Render(s[:width]))
			s = s[width:]
		}
		return append(rows, text.Render(s))
	}
	var rows []string
	var row strings.Builder
	used := 0
	var run strings.Builder // the current row's text still to be styled
	runWarn := false
	flushRun := func() {
		if run.Len() == 0 {
			return
		}
		if runWarn {
			row.WriteString(warn.Render(run.String()))
		} else {
			row.WriteString(text.Render(run.String()))
		}
		run.Reset()
	}
	newRow := func() {
		flushRun()
		rows = append(rows, row.String())
		row.Reset()
		used = 0
	}
	add := func(piece string, w int, isWarn bool) {
		if used > 0 && used+w > width {
			newRow()
		}
		if isWarn != runWarn {
			flushRun()
			runWarn = isWarn
		}
		run.WriteString(piece)
		used += w
	}
	for _, seg := range sanitize.EscapeSegments(s, codeEscape) {
		if seg.Escaped && ansi.StringWidth(seg.Text) <= width {
			add(seg.Text, ansi.StringWidth(seg.Text), true)
			continue
		}
		g := uniseg.NewGraphemes(seg.Text)
		for g.Next() {
			add(g.Str(), max(g.Width(), 0), seg.Escaped)
		}
	}
	flushRun()
	if row.Len() > 0 || len(rows) == 0 {
		rows = append(rows, row.String())
	}
	return rows
}

// hiddenCount is how many characters of s are shown as escape tokens.
func hiddenCount(s string) int {
	n := 0
	for _, seg := range sanitize.EscapeSegments(s, codeEscape) {
		if seg.Escaped {
			n++
		}
	}
	return n
}

// pathHiddenCount is how many characters of a path are shown as tokens.
func pathHiddenCount(p string) int {
	n := 0
	for _, seg := range sanitize.EscapeSegments(p, sanitize.EscapeOptions{}) {
		if seg.Escaped {
			n++
		}
	}
	return n
}

// shownPath is a path as the console shows it: escaped, in one string, and
// whether anything in it had to be escaped.
func shownPath(p string) (string, bool) {
	return sanitize.Escape(p, sanitize.EscapeOptions{})
}

// plainASCII reports whether s is printable ASCII only (space included).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
