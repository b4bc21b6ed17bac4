// Package gates renders the four merge gates as badges. Each badge carries
// a glyph and a word as well as a colour, so it reads the same without
// colour.
package gates

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Data holds each gate's value: pass, fail, pending or unknown.
type Data struct {
	Approvals        string
	BranchProtection string
	Checks           string
	Mergeability     string
}

// KeyMap is empty: the gates take no keys.
type KeyMap = common.NoKeys

// Model is the gates component.
type Model struct {
	common.Common
	Keys KeyMap
	data Data
}

// New returns the gates component, every gate unknown.
func New(st *theme.Styles) Model { return Model{Common: common.Common{Styles: st}} }

// SetData replaces the gate values.
func (m *Model) SetData(d Data) { m.data = d }

const label = "Gates"

// Named pairs each gate's display name with its value, in the protocol's
// order.
func Named(d Data) [][2]string {
	return [][2]string{
		{"approvals", d.Approvals},
		{"branch protection", d.BranchProtection},
		{"checks", d.Checks},
		{"mergeability", d.Mergeability},
	}
}

// Normalize maps a gate value to one of pass, fail, pending, unknown. An
// unexpected value is unknown: a gate never looks better than it is.
func Normalize(v string) string {
	switch v {
	case "pass", "fail", "pending":
		return v
	}
	return "unknown"
}

func (m Model) badge(name, value string) string {
	st, g := m.Styles, m.Styles.Glyphs
	var glyph string
	var style lipgloss.Style
	switch Normalize(value) {
	case "pass":
		glyph, style = g.Pass, st.Pass
	case "fail":
		glyph, style = g.Fail, st.Fail
	case "pending":
		glyph, style = g.Pending, st.Pending
	default:
		glyph, style = g.Unknown, st.Unknown
	}
	word := sanitize.Line(value, 12)
	if Normalize(value) == "unknown" && value != "unknown" {
		if word == "" {
			word = "unknown"
		} else {
			word = "unknown (" + word + ")"
		}
	}
	return name + " " + style.Render(glyph+" "+word)
}

// lines lays the badges out greedily, wrapping to more lines when the width
// is short rather than cutting a badge in half.
func (m Model) lines() []string {
	const gap = "   "
	indent := strings.Repeat(" ", len(label)+2)
	var out []string
	cur := m.Styles.Section.Render(label) + "  "
	curW := len(label) + 2
	empty := true
	for _, nv := range Named(m.data) {
		b := m.badge(nv[0], nv[1])
		bw := ansi.StringWidth(b)
		switch {
		case empty:
			cur += b
			curW += bw
		case curW+len(gap)+bw <= m.Width:
			cur += gap + b
			curW += len(gap) + bw
		default:
			out = append(out, common.Fit(cur, m.Width))
			cur, curW = indent+b, len(indent)+bw
		}
		empty = false
	}
	return append(out, common.Fit(cur, m.Width))
}

// Height is the number of lines View renders at the current width.
func (m Model) Height() int { return len(m.lines()) }

// View renders the badges.
func (m Model) View() string {
	if m.Width == 0 {
		return ""
	}
	return strings.Join(m.lines(), "\n")
}
