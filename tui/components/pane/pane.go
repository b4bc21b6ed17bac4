// Package pane is a titled, focusable, scrollable list of lines: the
// building block of the responses table and the thread list.
package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Model is a pane. The title and every line are given already sanitized
// and fitted by the component that owns the pane.
type Model struct {
	common.Common
	Keys    KeyMap
	title   string
	fixed   []string // lines pinned under the title (e.g. column headings)
	lines   []string
	focused bool
	vp      viewport.Model
	// rows are the indexes in lines of the selectable rows; with any, the
	// scroll keys move a row cursor (lazygit, gh-dash) and the view
	// follows it, else they scroll.
	rows   []int
	cursor int
}

// New returns an unfocused, empty pane.
func New(st *theme.Styles) Model {
	m := Model{Common: common.Common{Styles: st}, Keys: KeyMap{Scroll: keys.NewScroll()}, vp: viewport.New(0, 0)}
	m.Keys.SetEnabled(false)
	return m
}

// SetSize implements the component contract. The height is the whole
// pane's, title and pinned lines included.
func (m *Model) SetSize(width, height int) {
	m.Common.SetSize(width, height)
	m.vp.Width = m.Width
	m.vp.Height = max(m.Height-1-len(m.fixed), 0)
	m.vp.SetContent(strings.Join(m.display(), "\n"))
	m.follow()
}

// Resize is SetSize for an owner whose lines depend on the width only: it
// reports whether the width changed, so the owner rebuilds its lines then
// and not on a height change (help toggled, banner grew).
func (m *Model) Resize(width, height int) (widthChanged bool) {
	widthChanged = width != m.Width
	m.SetSize(width, height)
	return widthChanged
}

// SetContent replaces the title, pinned lines and body. The scroll position
// is kept (clamped) so that a watch refresh does not jump to the top.
func (m *Model) SetContent(title string, fixed, lines []string) {
	m.title, m.fixed, m.lines = title, fixed, lines
	m.SetSize(m.Width, m.Height)
}

// SetRows makes the body lines at the given indexes (ascending) the
// selectable rows. The cursor stays on the same row number, clamped, so a
// refresh does not move it; nil turns the cursor off.
func (m *Model) SetRows(rows []int) {
	m.rows = rows
	m.cursor = min(max(m.cursor, 0), max(len(rows)-1, 0))
	m.SetSize(m.Width, m.Height)
}

// Cursor is the selected row (an index into the rows given to SetRows), or
// -1 when the pane has none.
func (m Model) Cursor() int {
	if len(m.rows) == 0 {
		return -1
	}
	return m.cursor
}

// display is the body with the cursor row marked. The mark is a glyph, not
// only a colour, so that it shows with NO_COLOR; only the focused pane
// shows its cursor.
func (m Model) display() []string {
	if !m.focused || len(m.rows) == 0 {
		return m.lines
	}
	out := append([]string(nil), m.lines...)
	i := m.rows[m.cursor]
	if i >= 0 && i < len(out) {
		mark := m.Styles.Glyphs.Focus + " "
		rest := ansi.TruncateLeft(out[i], ansi.StringWidth(mark), "")
		out[i] = m.Styles.Selected.Render(common.Fit(mark+rest, m.Width))
	}
	return out
}

// follow scrolls so that the cursor row is visible, with the heading line
// above the first row when there is one.
func (m *Model) follow() {
	if len(m.rows) == 0 || m.vp.Height <= 0 {
		return
	}
	line := m.rows[m.cursor]
	if m.cursor == 0 {
		line = 0
	}
	switch {
	case line < m.vp.YOffset:
		m.vp.SetYOffset(line)
	case m.rows[m.cursor] >= m.vp.YOffset+m.vp.Height:
		m.vp.SetYOffset(m.rows[m.cursor] - m.vp.Height + 1)
	}
}

func (m *Model) move(to int) {
	m.cursor = min(max(to, 0), len(m.rows)-1)
	m.vp.SetContent(strings.Join(m.display(), "\n"))
	m.follow()
}

// Focus and Blur move keyboard focus; only a focused pane scrolls.
func (m *Model) Focus() { m.focused = true; m.Keys.SetEnabled(true); m.SetSize(m.Width, m.Height) }

// Blur removes focus.
func (m *Model) Blur() { m.focused = false; m.Keys.SetEnabled(false); m.SetSize(m.Width, m.Height) }

// Focused reports whether the pane has focus.
func (m Model) Focused() bool { return m.focused }

// YOffset is the first visible body line.
func (m Model) YOffset() int { return m.vp.YOffset }

// ShortHelp implements help.KeyMap, so an owner's help lists the pane's keys.
func (m Model) ShortHelp() []key.Binding { return m.Keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (m Model) FullHelp() [][]key.Binding { return m.Keys.FullHelp() }

// Update scrolls on the pane's keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if len(m.rows) > 0 {
		page := max(m.vp.Height-1, 1)
		switch {
		case key.Matches(k, m.Keys.Up):
			m.move(m.cursor - 1)
		case key.Matches(k, m.Keys.Down):
			m.move(m.cursor + 1)
		case key.Matches(k, m.Keys.PageUp):
			m.move(m.cursor - page)
		case key.Matches(k, m.Keys.PageDown):
			m.move(m.cursor + page)
		case key.Matches(k, m.Keys.Top):
			m.move(0)
		case key.Matches(k, m.Keys.Bottom):
			m.move(len(m.rows) - 1)
		}
		return nil
	}
	switch {
	case key.Matches(k, m.Keys.Up):
		m.vp.ScrollUp(1)
	case key.Matches(k, m.Keys.Down):
		m.vp.ScrollDown(1)
	case key.Matches(k, m.Keys.PageUp):
		m.vp.PageUp()
	case key.Matches(k, m.Keys.PageDown):
		m.vp.PageDown()
	case key.Matches(k, m.Keys.Top):
		m.vp.GotoTop()
	case key.Matches(k, m.Keys.Bottom):
		m.vp.GotoBottom()
	}
	return nil
}

// View renders the title line (with a focus marker, since colour may be
// off, and a position when the body does not fit), the pinned lines and
// the visible body.
func (m Model) View() string {
	if m.Width == 0 || m.Height == 0 {
		return ""
	}
	st := m.Styles
	marker, style := " ", st.Section
	if m.focused {
		marker, style = st.Glyphs.Focus, st.Focused
	}
	head := marker + " " + m.title
	if n := len(m.lines); n > m.vp.Height && m.vp.Height > 0 {
		last := min(m.vp.YOffset+m.vp.Height, n)
		pos := fmt.Sprintf("%d-%d of %d", m.vp.YOffset+1, last, n)
		if gap := m.Width - len(pos) - ansi.StringWidth(head); gap > 0 {
			head += strings.Repeat(" ", gap) + pos
		}
	}
	out := []string{style.Render(common.Fit(head, m.Width))}
	for i, l := range m.fixed {
		if 1+i >= m.Height {
			break
		}
		out = append(out, common.Fit(l, m.Width))
	}
	if m.vp.Height > 0 {
		out = append(out, m.vp.View())
	}
	return strings.Join(out, "\n")
}
