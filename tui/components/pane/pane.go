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
	m.vp.SetContent(strings.Join(m.lines, "\n"))
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

// Focus and Blur move keyboard focus; only a focused pane scrolls.
func (m *Model) Focus() { m.focused = true; m.Keys.SetEnabled(true) }

// Blur removes focus.
func (m *Model) Blur() { m.focused = false; m.Keys.SetEnabled(false) }

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
