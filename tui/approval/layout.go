package approval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/footer"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/components/toosmall"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// The smallest terminal the console draws in. Below it the console says so
// instead of drawing a plan the human cannot read whole.
const (
	MinWidth  = 60
	MinHeight = 18
)

// minMiddle is the height kept for the files and the diff (a title and
// four rows); the plan summary comes first, since it is what is approved.
const minMiddle = 5

func (m *Model) inDrift() bool {
	return m.state == stateDrift || (m.state == stateDone && m.result.Outcome == Drift)
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// SetSize lays the console out for a terminal of width × height; the
// program calls it on every tea.WindowSizeMsg.
//
// Panes are sized to their content, in the order of what matters to the
// approval: the summary (repository, branches, boundary, validation
// commands, title, body) is shown whole whenever the terminal allows; the
// operations follow, in full with what each does when there is room, else
// as one line of names in the summary (tab shows them in full in place of
// the diff); the files and the diff take every row that is left.
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
		m.drift.SetSize(w, m.height-len(m.driftHeadline())-2*m.hashHeight()-1-m.helpHeight())
		return
	}

	sum := m.summaryLines(w)
	opsFull := m.opsLines(w)
	mid := minMiddle
	if len(m.cfg.View.Files) == 0 {
		// a plan without file content (a fix round before its edit, a
		// finalization): its one line needs no room that the summary,
		// which is what is approved, could use
		mid = 2
	}
	m.opsInline = 1+len(sum)+1+len(opsFull)+mid > free
	if m.opsInline {
		sum = append(sum, m.opsCompact(w)...)
	}
	m.summary.SetContent(m.summaryTitle(), nil, sum)
	m.ops.SetContent(m.opsTitle(), nil, opsFull)

	sumH := min(1+len(sum), free-mid)
	opsH := 0
	if !m.opsInline {
		opsH = 1 + len(opsFull)
	}
	midH := free - sumH - opsH
	m.summary.SetSize(w, sumH)
	if m.opsInline {
		m.ops.SetSize(w, midH) // shown in place of the files and the diff
	} else {
		m.ops.SetSize(w, opsH)
	}

	filesW := min(max(w/3, 24), 44)
	m.files.SetSize(filesW, midH)
	m.diff.SetSize(w-filesW-1, midH)
	m.fillDiff(false)
}

// hashLabelWidth is the width of the label before a hash: the full
// "Plan hash" where the hash still fits on one line beside it, a short one
// where only that keeps it on one line.
func (m *Model) hashLabelWidth() int {
	if m.width >= labelWidth+71 || m.width < 9+71 {
		return labelWidth
	}
	return 9 // "approved " and "rebuilt " still fit
}

func (m *Model) hashHeight() int {
	if m.width >= m.hashLabelWidth()+71 {
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
	if m.repoInTitle(m.width) {
		return "Plan for " + sanitize.Line(m.repoLine(), 1<<12)
	}
	return "Plan for " + sanitize.Line(m.cfg.View.Repository, 1<<12)
}

func (m *Model) opsTitle() string {
	return fmt.Sprintf("Operations (%d, in this order)", len(m.cfg.View.Operations))
}

// opNameWidth is the name column: the longest operation name and a space,
// at least the 22 cells it always had ("bootstrap-automation" and a
// margin). A name is part of what is approved, so the column grows to it
// rather than cut it ("delete-owned-automation" was shown as
// "delete-owned-automat…").
func (m *Model) opNameWidth() int {
	w := len("bootstrap-automation") + 2
	for _, op := range m.cfg.View.Operations {
		w = max(w, ansi.StringWidth(sanitize.Line(op.Name, 1<<12))+1)
	}
	return w
}

// opsLines is every operation with what it does, wrapped, never cut.
func (m *Model) opsLines(width int) []string {
	var lines []string
	nameWidth := m.opNameWidth()
	room := max(width-4-nameWidth, 8)
	indent := strings.Repeat(" ", 4+nameWidth)
	for i, op := range m.cfg.View.Operations {
		name := common.Pad(sanitize.Line(op.Name, 1<<12), nameWidth)
		for j, part := range wrapText(sanitize.Line(op.Description, 1<<12), room) {
			if j == 0 {
				lines = append(lines, fmt.Sprintf("%2d. ", i+1)+m.st.Title.Render(name)+m.st.Text.Render(part))
			} else {
				lines = append(lines, indent+m.st.Text.Render(part))
			}
		}
	}
	return lines
}

// opsCompact is the operations as one wrapped line of names, for the
// summary when the full list does not fit.
func (m *Model) opsCompact(width int) []string {
	names := make([]string, len(m.cfg.View.Operations))
	for i, op := range m.cfg.View.Operations {
		names[i] = fmt.Sprintf("%d.%s", i+1, op.Name)
	}
	var lines []string
	for i, l := range wrapFacts(names, " ", width-labelWidth) {
		label := ""
		if i == 0 {
			label = "operations"
		}
		lines = append(lines, m.st.Muted.Render(common.Pad(label, labelWidth))+m.st.Text.Render(l))
	}
	return lines
}

// wrapText breaks one line of text at spaces into rows of at most width
// cells (a word longer than a row is broken), never cutting anything.
func wrapText(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}

// fillDiff shows the selected file, whole: every changed line, escaped and
// wrapped, with its line number. A new selection starts at the top of its
// diff; a resize keeps the scroll position. A diff still being computed
// says so.
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
	if width <= 0 {
		return
	}
	if len(m.cfg.View.Files) == 0 {
		text := "  the plan changes no file"
		if len(m.cfg.View.Scope) > 0 {
			// a fix round: the edit happens after the approval
			text = "  the edit comes after approval; the console shows its diff before the commit"
		}
		m.diff.SetContent("Diff", nil, []string{m.st.Muted.Render(common.Fit(text, width))})
		return
	}
	i := m.files.sel
	f := m.cfg.View.Files[i]
	path, pathHidden := shownPath(f.Path)
	var fixed []string
	title := "Diff " + m.st.Glyphs.Sep + " " + path
	if ansi.StringWidth(title)+2 > width {
		// The path is part of what is approved: shown whole, wrapped.
		title = fmt.Sprintf("Diff %s file %d of %d", m.st.Glyphs.Sep, i+1, len(m.cfg.View.Files))
		fixed = append(fixed, codeRows(f.Path, width, paint(m.st.Text), paint(m.st.Warn))...)
	}
	if why := m.unbound[i]; why != "" {
		fixed = append(fixed, wrapStyled(m.st.Error, m.st.Glyphs.Fail+" "+why+"; this plan cannot be approved", width)...)
	}
	d := m.diffs[i]
	if d == nil {
		if pathHidden {
			fixed = append(fixed, wrapStyled(m.st.Warn, m.st.Glyphs.Notice+" hidden characters in the path, shown as ⟨U+…⟩", width)...)
		}
		m.diff.SetContent(title, fixed, []string{m.st.Muted.Render(common.Fit("  computing the diff…", width))})
		return
	}
	if n := d.hidden + pathHiddenCount(f.Path); n > 0 {
		fixed = append(fixed, wrapStyled(m.st.Warn, fmt.Sprintf("%s %s, shown as ⟨U+…⟩", m.st.Glyphs.Notice, plural(n, "hidden or control character")), width)...)
	}
	m.diff.SetContent(title, fixed, m.diffRows(d, width))
}

// diffRows draws a diff: "<number> <+|-| > <text>", each line wrapped under
// its text with the number column left blank on continuation rows.
func (m *Model) diffRows(d *fileDiff, width int) []string { return drawDiff(m.st, d.lines, width) }

// drawDiff is the one diff renderer: the plan's files here, and the
// resulting unified diff of a hand or fixer edit (UnifiedDiff).
func drawDiff(st *theme.Styles, lines []diffLine, width int) []string {
	maxNum := 0
	for _, l := range lines {
		maxNum = max(maxNum, l.num)
	}
	numW := len(strconv.Itoa(maxNum))
	gutter := numW + 3
	room := max(width-gutter, 1)
	muted, warn := paint(st.Muted), paint(st.Warn)
	kinds := map[lineKind]struct {
		style painter
		mark  string
	}{
		lineContext: {paint(st.Text), " "},
		lineAdded:   {paint(st.Pass), "+"},
		lineRemoved: {paint(st.Fail.Bold(false)), "-"},
	}
	for k, v := range kinds {
		v.mark = v.style.Render(v.mark)
		kinds[k] = v
	}
	blank := muted.Render(strings.Repeat(" ", numW))
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		switch l.kind {
		case lineNote:
			for _, r := range wrapText(sanitize.Line(l.text, 1<<12), width) {
				out = append(out, muted.Render(r))
			}
			continue
		case lineHeader:
			// A file header names a path: escaped, never stripped.
			out = append(out, codeRows(l.text, width, paint(st.Section), warn)...)
			continue
		}
		k := kinds[l.kind]
		for j, r := range codeRows(l.text, room, k.style, warn) {
			num := blank
			if j == 0 {
				num = muted.Render(fmt.Sprintf("%*d", numW, l.num))
			}
			out = append(out, num+" "+k.mark+" "+r)
		}
	}
	return out
}

// wrapStyled wraps one message into rows in one style.
func wrapStyled(st lipgloss.Style, s string, width int) []string {
	rows := wrapText(sanitize.Line(s, 1<<12), width)
	for i, r := range rows {
		rows[i] = st.Render(r)
	}
	return rows
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
	// The one "too small" screen both consoles share.
	return toosmall.New(m.st, MinWidth, MinHeight).WithLeave("press esc to cancel").Sized(m.width, m.height).View()
}

func (m *Model) reviewView() string {
	st := m.st
	parts := []string{m.summary.View()}
	switch {
	case m.opsInline && m.focus == focusOps:
		parts = append(parts, m.ops.View())
	case m.opsInline:
		parts = append(parts, lipgloss.JoinHorizontal(lipgloss.Top, m.files.View(), " ", m.diff.View()))
	default:
		parts = append(parts, lipgloss.JoinHorizontal(lipgloss.Top, m.files.View(), " ", m.diff.View()), m.ops.View())
	}
	parts = append(parts, m.hashLines("Plan hash", m.cfg.View.PlanHash)...)

	marker, label := " ", st.Section
	if m.focus == focusInput && m.state == stateReview {
		marker, label = st.Glyphs.Focus, st.Focused
	}
	lead := marker + " Approve  "
	field := m.input.View(m.width - ansi.StringWidth(lead))
	if m.state == stateAddPath || m.state == stateAdding {
		lead = st.Glyphs.Focus + " Add path "
		label = st.Focused
		field = m.pathIn.View(m.width - ansi.StringWidth(lead))
	}
	parts = append(parts, label.Render(lead)+field)
	parts = append(parts, m.noticeLine())
	parts = append(parts, m.keyBar())
	return fitScreen(strings.Join(parts, "\n"), m.width, m.height)
}

// keyBar is the key help: the full help when toggled, else one line that
// drops keys to fit but keeps the last two, how to cancel and how to get
// help (bubbles' help cut them off with an ellipsis at 60 columns).
func (m *Model) keyBar() string {
	if m.help.ShowAll {
		return m.help.View(m.currentHelp())
	}
	return footer.KeyBar(m.help, m.currentHelp().ShortHelp(), m.width)
}

func (m *Model) hashLines(label, hash string) []string {
	g := hashGroups(sanitize.Line(hash, 64))
	lw := m.hashLabelWidth()
	if lw < len(label)+1 {
		label = "hash"
	}
	lead := m.st.Muted.Render(common.Pad(label, lw))
	if m.hashHeight() == 1 || len(g) <= 4 {
		return []string{lead + m.st.Title.Render(strings.Join(g, " "))}
	}
	return []string{
		lead + m.st.Title.Render(strings.Join(g[:4], " ")),
		strings.Repeat(" ", lw) + m.st.Title.Render(strings.Join(g[4:], " ")),
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
	case stateAdding:
		return m.spin.View() + " " + st.Text.Render(sanitize.Line("Adding the path and rebuilding the plan…", w-2))
	}
	if m.notice != "" {
		return st.Error.Render(sanitize.Line(st.Glyphs.Fail+" "+m.notice, w))
	}
	if m.state == stateAddPath {
		return st.Muted.Render(sanitize.Line("Add a path to the fix round's scope, then enter; esc returns to the plan.", w))
	}
	if m.info != "" && m.input.Value() == "" {
		return st.Pass.Render(sanitize.Line(st.Glyphs.Pass+" "+m.info, w))
	}
	if m.input.Value() != "" {
		return m.progressLine()
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
	if m.state == stateAddPath || m.state == stateAdding {
		return addPathHelp{}
	}
	return m.keys
}

// ShortHelp is the key bar the console draws (a host screen shows it in
// its own help).
func (m *Model) ShortHelp() []key.Binding { return m.currentHelp().ShortHelp() }

// FullHelp is the full help the console draws.
func (m *Model) FullHelp() [][]key.Binding { return m.currentHelp().FullHelp() }

// addPathHelp is the key bar of the path input.
type addPathHelp struct{}

func (addPathHelp) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add the path")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the plan")),
		key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel")),
	}
}

func (h addPathHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

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
