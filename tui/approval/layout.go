package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// The smallest terminal the console draws in. Below it the console says so
// instead of drawing a plan the human cannot read whole.
const (
	MinWidth  = 60
	MinHeight = 18
)

const opNameWidth = 22

// minMiddle is the height kept for the files and the diff; the summary and
// the operations take what they need of the rest.
const minMiddle = 8

// share splits room between two panes wanting a and b lines: both get what
// they want if it fits, else each gets half and the unused part of one half
// goes to the other.
func share(room, a, b int) (int, int) {
	if a+b <= room {
		return a, b
	}
	ha, hb := room/2, room-room/2
	switch {
	case a < ha:
		return a, room - a
	case b < hb:
		return room - b, b
	}
	return ha, hb
} // "bootstrap-automation" and a margin

func (m *Model) inDrift() bool {
	return m.state == stateDrift || (m.state == stateDone && m.result.Outcome == Drift)
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// SetSize lays the console out for a terminal of width × height; the
// program calls it on every tea.WindowSizeMsg.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	if m.tooSmall() {
		return
	}
	w := m.width
	m.help.Width = w
	free := m.height - m.hashHeight() - 2 - m.helpHeight() // input and message lines

	if m.inDrift() {
		m.fillDrift()
		// headline, two hashes, the "plan again" line, help
		m.drift.SetSize(w, m.height-1-2*m.hashHeight()-1-m.helpHeight())
		return
	}

	sum := m.summaryLines(w)
	m.summary.SetContent(m.summaryTitle(), nil, sum)
	m.fillOps(w)

	sumH, opsH := share(free-minMiddle, 1+len(sum), 1+len(m.cfg.View.Operations))
	midH := free - sumH - opsH
	m.summary.SetSize(w, sumH)
	m.ops.SetSize(w, opsH)

	filesW := min(max(w/3, 24), 44)
	m.files.SetSize(filesW, midH)
	m.diff.SetSize(w-filesW-1, midH)
	m.fillDiff(false)
}

func (m *Model) hashHeight() int {
	if m.width >= labelWidth+71 {
		return 1
	}
	return 2
}

func (m *Model) helpHeight() int {
	if !m.help.ShowAll {
		return 1
	}
	n := 0
	for _, col := range m.currentHelp().FullHelp() {
		n = max(n, len(col))
	}
	return n
}

func (m *Model) summaryTitle() string {
	v := m.cfg.View
	return "Plan for " + sanitize.Line(v.Repository, 60) + " " + m.st.Glyphs.Sep + " " + sanitize.Line(v.Mode, 20)
}

func (m *Model) fillOps(width int) {
	var lines []string
	room := width - 4 - opNameWidth
	for i, op := range m.cfg.View.Operations {
		name := common.Pad(sanitize.Line(op.Name, opNameWidth-1), opNameWidth)
		lines = append(lines, fmt.Sprintf("%2d. ", i+1)+m.st.Title.Render(name)+m.st.Text.Render(sanitize.Line(op.Description, room)))
	}
	m.ops.SetContent(fmt.Sprintf("Operations (%d, in this order)", len(m.cfg.View.Operations)), nil, lines)
}

// fillDiff shows the selected file. A new selection starts at the top of
// its diff; a resize keeps the scroll position.
func (m *Model) fillDiff(reset bool) {
	if reset {
		focused := m.diff.Focused()
		w, h := m.diff.Width, m.diff.Height
		m.diff = pane.New(m.st)
		m.diff.SetSize(w, h)
		if focused {
			m.diff.Focus()
		}
	}
	width := m.diff.Width
	if len(m.cfg.View.Files) == 0 {
		m.diff.SetContent("Diff", nil, []string{m.st.Muted.Render(common.Fit("  the plan changes no file", width))})
		return
	}
	i := m.files.sel
	d := m.diffs[i]
	title := "Diff " + m.st.Glyphs.Sep + " " + sanitize.Line(m.cfg.View.Files[i].Path, max(width-12, 1))
	removed := m.st.Fail.Bold(false)
	lines := make([]string, len(d.lines))
	for j, l := range d.lines {
		switch l.kind {
		case lineAdded:
			lines[j] = m.st.Pass.Render("+ " + codeLine(l.text, width-2))
		case lineRemoved:
			lines[j] = removed.Render("- " + codeLine(l.text, width-2))
		case lineNote:
			lines[j] = m.st.Muted.Render(sanitize.Line(l.text, width))
		default:
			lines[j] = m.st.Text.Render("  " + codeLine(l.text, width-2))
		}
	}
	m.diff.SetContent(title, nil, lines)
}

// View implements tea.Model.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.tooSmall() {
		return m.tooSmallView()
	}
	if m.inDrift() {
		return m.driftView()
	}
	return m.reviewView()
}

func (m *Model) tooSmallView() string {
	msg := fmt.Sprintf("Terminal too small: %dx%d. The approval console needs at least %dx%d; enlarge the window, or press esc to cancel.",
		m.width, m.height, MinWidth, MinHeight)
	return fitScreen(lipgloss.NewStyle().Width(m.width).Render(msg), m.width, m.height)
}

func (m *Model) reviewView() string {
	st := m.st
	parts := []string{
		m.summary.View(),
		lipgloss.JoinHorizontal(lipgloss.Top, m.files.View(), " ", m.diff.View()),
		m.ops.View(),
	}
	parts = append(parts, m.hashLines("Plan hash", m.cfg.View.PlanHash)...)

	marker, label := " ", st.Section
	if m.focus == focusInput && m.state == stateReview {
		marker, label = st.Glyphs.Focus, st.Focused
	}
	lead := marker + " Approve  "
	parts = append(parts, label.Render(lead)+m.input.View(m.width-ansi.StringWidth(lead)))
	parts = append(parts, m.noticeLine())
	parts = append(parts, m.help.View(m.currentHelp()))
	return fitScreen(strings.Join(parts, "\n"), m.width, m.height)
}

func (m *Model) hashLines(label, hash string) []string {
	g := hashGroups(sanitize.Line(hash, 64))
	lead := m.st.Muted.Render(common.Pad(label, labelWidth))
	if m.hashHeight() == 1 || len(g) <= 4 {
		return []string{lead + m.st.Title.Render(strings.Join(g, " "))}
	}
	return []string{
		lead + m.st.Title.Render(strings.Join(g[:4], " ")),
		strings.Repeat(" ", labelWidth) + m.st.Title.Render(strings.Join(g[4:], " ")),
	}
}

func (m *Model) noticeLine() string {
	st, w := m.st, m.width
	switch m.state {
	case stateChecking:
		return m.spin.View() + " " + st.Text.Render(sanitize.Line(RecheckingMessage, w-2))
	case stateRecording:
		return m.spin.View() + " " + st.Text.Render(sanitize.Line(RecordingMessage, w-2))
	case stateFailed:
		return st.Error.Render(sanitize.Line(st.Glyphs.Fail+" "+m.notice+" Press enter to exit.", w))
	}
	if m.notice != "" {
		return st.Error.Render(sanitize.Line(st.Glyphs.Fail+" "+m.notice, w))
	}
	return st.Muted.Render(sanitize.Line("Review the plan (tab moves between panes), then type its hash to approve it.", w))
}

func (m *Model) currentHelp() interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
} {
	if m.state == stateDrift || m.state == stateFailed {
		return m.fkeys
	}
	return m.keys
}

// fitScreen makes s exactly height lines, each at most width cells, so the
// renderer never scrolls and no line wraps.
func fitScreen(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = common.Fit(l, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
