// Package threads renders the unresolved review threads, grouped by what
// the loop will do with them: actionable, eligible, non-Codex, resolved.
package threads

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Row is one thread. Every string is untrusted.
type Row struct {
	Kind     string // actionable | eligible | non-codex | resolved
	Path     string
	Line     int64 // 0 when the thread is on the file, not a line
	Priority string
	Title    string
	Author   string
	Body     string // the root comment in full, for the detail view
	URL      string // the thread on github.com, for o and y
}

// Group is a heading and the kind it collects.
type Group struct{ Kind, Heading string }

// Groups is the display order. A row of any other kind is listed last
// under "Other", never dropped.
var Groups = []Group{
	{"actionable", "Actionable"},
	{"eligible", "Eligible"},
	{"non-codex", "Non-Codex"},
	{"resolved", "Resolved"},
}

const (
	indent   = "    "
	wPrio    = 3
	gap      = "  "
	maxLoc   = 48
	minTitle = 12
)

// KeyMap is the pane's scrolling keys.
type KeyMap = pane.KeyMap

// Model is the thread list.
type Model struct {
	pane.Model
	rows    []Row
	shown   []Row // rows in display order: the pane's cursor indexes this
	loading bool
}

// New returns an empty list.
func New(st *theme.Styles) Model {
	m := Model{Model: pane.New(st)}
	m.rebuild()
	return m
}

// SetData replaces the rows. They are sanitized here, once per refresh,
// not on every resize or key press.
func (m *Model) SetData(rows []Row) {
	m.rows = make([]Row, len(rows))
	for i, r := range rows {
		m.rows[i] = Row{
			Kind: r.Kind, Path: sanitize.Text(r.Path), Line: r.Line,
			Priority: sanitize.Text(r.Priority), Title: sanitize.Text(r.Title), Author: sanitize.Text(r.Author),
			Body: r.Body, URL: r.URL, // sanitized where shown, keeping its line breaks
		}
	}
	m.rebuild()
}

// SetLoading says that nothing has been observed yet, so an empty list
// means "not known", not "no threads".
func (m *Model) SetLoading(on bool) {
	m.loading = on
	m.rebuild()
}

// Selected is the row under the cursor.
func (m Model) Selected() (Row, bool) {
	i := m.Cursor()
	if i < 0 || i >= len(m.shown) {
		return Row{}, false
	}
	return m.shown[i], true
}

// SetSize implements the component contract. Lines depend on the width
// only, so a height change does not rebuild them. Update (scrolling when
// focused) and the help come from the embedded pane.
func (m *Model) SetSize(width, height int) {
	if m.Resize(width, height) {
		m.rebuild()
	}
}

// Section is one group as displayed.
type Section struct {
	Heading string
	Rows    []Row
}

// Grouped returns the non-empty groups in display order; kinds outside
// Groups come last as "Other".
func Grouped(rows []Row) []Section {
	known := map[string]bool{}
	var out []Section
	for _, g := range Groups {
		known[g.Kind] = true
		var rs []Row
		for _, r := range rows {
			if r.Kind == g.Kind {
				rs = append(rs, r)
			}
		}
		if len(rs) > 0 {
			out = append(out, Section{g.Heading, rs})
		}
	}
	var other []Row
	for _, r := range rows {
		if !known[r.Kind] {
			other = append(other, r)
		}
	}
	if len(other) > 0 {
		out = append(out, Section{"Other", other})
	}
	return out
}

// Location is "path:line", or the path alone for a file-level thread.
func Location(r Row) string {
	p := sanitize.Text(r.Path)
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", p, r.Line)
	}
	return p
}

// Author is the sanitized login to show, or "" for a Codex-rooted thread:
// its author is the Codex bot by definition, and the title needs the room.
func Author(r Row) string {
	switch r.Kind {
	case "actionable", "eligible":
		return ""
	}
	return sanitize.Text(r.Author)
}

func (m *Model) rebuild() {
	st := m.Styles
	groups := Grouped(m.rows)

	locW := 0
	for _, r := range m.rows {
		locW = max(locW, ansi.StringWidth(sanitize.Line(Location(r), maxLoc)))
	}
	// The title needs room more than the path does.
	locW = min(locW, max(m.Width-len(indent)-wPrio-2*len(gap)-minTitle, 8))
	titleW := m.Width - len(indent) - locW - wPrio - 2*len(gap)

	var lines []string
	var rows []int
	m.shown = m.shown[:0]
	for _, g := range groups {
		lines = append(lines, st.Section.Render(common.Fit(fmt.Sprintf("  %s (%d)", g.Heading, len(g.Rows)), m.Width)))
		for _, r := range g.Rows {
			rows = append(rows, len(lines))
			m.shown = append(m.shown, r)
			loc := common.Pad(sanitize.Line(Location(r), locW), locW)
			prio := common.Pad(sanitize.Line(r.Priority, wPrio), wPrio)
			if strings.TrimSpace(prio) == "" {
				prio = common.Pad("-", wPrio)
			}
			title := sanitize.Text(r.Title)
			if a := Author(r); a != "" {
				title += " — @" + a
			}
			lines = append(lines, common.Fit(indent+loc+gap+prio+gap+sanitize.Line(title, titleW), m.Width))
		}
	}
	title := fmt.Sprintf("Threads (%d)", len(m.rows))
	if len(lines) == 0 {
		empty := "  no review threads"
		if m.loading {
			empty, title = "  loading…", "Threads"
		}
		lines = []string{st.Muted.Render(common.Fit(empty, m.Width))}
	}
	m.SetContent(title, nil, lines)
	m.SetRows(rows)
}
