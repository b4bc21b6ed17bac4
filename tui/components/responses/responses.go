// Package responses renders the review request and the Codex responses to
// it as a scrollable table.
package responses

import (
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Row is one response. Every string is untrusted.
type Row struct {
	Source       string // issue-comment | review | review-comment
	ID           string
	CreatedAt    string
	Commit       string
	ZeroFindings bool
	Qualifies    bool   // answers the current request
	URL          string // the response on github.com, for o and y
}

// Request is the review request the responses answer; nil when none was
// found.
type Request struct {
	ID        int64
	CreatedAt string
	HeadSHA   string
	Deadline  string
}

// Column widths, in cells. Time fits an RFC 3339 UTC timestamp.
const (
	wSource = 14
	wID     = 12
	wTime   = 20
	wCommit = 7
	wZero   = 4
	wRound  = 7
	gap     = "  "
)

// KeyMap is the pane's scrolling keys.
type KeyMap = pane.KeyMap

// Model is the responses component.
type Model struct {
	pane.Model
	rows    []Row
	request *Request
	loading bool
}

// New returns an empty table.
func New(st *theme.Styles) Model {
	m := Model{Model: pane.New(st)}
	m.rebuild()
	return m
}

// SetData replaces the rows and the request.
func (m *Model) SetData(req *Request, rows []Row) {
	m.request, m.rows = req, rows
	m.rebuild()
}

// SetLoading says that nothing has been observed yet.
func (m *Model) SetLoading(on bool) {
	m.loading = on
	m.rebuild()
}

// Selected is the row under the cursor, and the request, for the detail view.
func (m Model) Selected() (Row, bool) {
	i := m.Cursor()
	if i < 0 || i >= len(m.rows) {
		return Row{}, false
	}
	return m.rows[i], true
}

// Request is the review request shown above the rows, or nil.
func (m Model) Request() *Request { return m.request }

// SetSize implements the component contract. Lines depend on the width
// only, so a height change does not rebuild them. Update (scrolling when
// focused) and the help come from the embedded pane.
func (m *Model) SetSize(width, height int) {
	if m.Resize(width, height) {
		m.rebuild()
	}
}

// withID reports whether the id column fits; it is the first to go.
func (m Model) withID() bool {
	return m.Width >= 2+wSource+wID+wTime+wCommit+wZero+wRound+6*len(gap)
}

func (m Model) row(cells ...string) string {
	return common.Fit("  "+strings.Join(cells, gap), m.Width)
}

func (m *Model) rebuild() {
	st := m.Styles
	var fixed []string
	if r := m.request; r != nil {
		s := fmt.Sprintf("request #%d", r.ID)
		if c := sanitize.Line(r.CreatedAt, 32); c != "" {
			s += " " + st.Glyphs.Sep + " " + c
		}
		if d := sanitize.Line(r.Deadline, 32); d != "" {
			s += " " + st.Glyphs.Sep + " deadline " + d
		}
		if h := common.ShortSHA(r.HeadSHA); h != "" {
			s += " " + st.Glyphs.Sep + " head " + h
		}
		fixed = append(fixed, st.Muted.Render(common.Fit("  "+s, m.Width)))
	} else if !m.loading {
		fixed = append(fixed, st.Muted.Render(common.Fit("  no review request found", m.Width)))
	}
	head := []string{common.Pad("SOURCE", wSource)}
	if m.withID() {
		head = append(head, common.Pad("ID", wID))
	}
	head = append(head, common.Pad("CREATED", wTime), common.Pad("COMMIT", wCommit), common.Pad("ZERO", wZero), "ROUND")
	if len(m.rows) > 0 {
		fixed = append(fixed, st.Column.Render(m.row(head...)))
	}

	var lines []string
	var rows []int
	for _, r := range m.rows {
		rows = append(rows, len(lines))
		cells := []string{common.Pad(sanitize.Line(r.Source, wSource), wSource)}
		if m.withID() {
			cells = append(cells, common.Pad(sanitize.Line(r.ID, wID), wID))
		}
		zero, round := "no", "older"
		if r.ZeroFindings {
			zero = "yes"
		}
		if r.Qualifies {
			round = "current"
		}
		cells = append(cells,
			common.Pad(sanitize.Line(r.CreatedAt, wTime), wTime),
			common.Pad(common.ShortSHA(r.Commit), wCommit),
			common.Pad(zero, wZero), round)
		lines = append(lines, m.row(cells...))
	}
	title := fmt.Sprintf("Responses (%d)", len(m.rows))
	if len(m.rows) == 0 {
		empty := "  no Codex responses yet"
		if m.loading {
			empty, title = "  loading…", "Responses"
		}
		lines = []string{st.Muted.Render(common.Fit(empty, m.Width))}
	}
	m.SetContent(title, fixed, lines)
	m.SetRows(rows)
}

// Want is the height the table would like: title, pinned lines and every
// row. The layout gives it less when the screen is short.
func (m Model) Want() int {
	n := len(m.rows)
	if n == 0 {
		n = 1
	}
	fixed := 1
	if len(m.rows) > 0 {
		fixed = 2
	}
	if m.loading && m.request == nil {
		fixed = 0
	}
	return 1 + fixed + n
}
