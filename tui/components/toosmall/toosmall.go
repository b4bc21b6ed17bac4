// Package toosmall is shown instead of a screen when the terminal is
// smaller than the screen's minimum, so that a short terminal degrades to a
// message instead of a crash or a garbled layout.
package toosmall

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/theme"
)

// KeyMap is the only thing still possible: quitting.
type KeyMap struct{ Quit key.Binding }

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Quit} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Model is the "terminal too small" view, the one both consoles show.
type Model struct {
	common.Common
	Keys                KeyMap
	MinWidth, MinHeight int
	leave               string // how to leave instead: "press q to quit"
}

// New returns the view for the given minimum size.
func New(st *theme.Styles, minWidth, minHeight int) Model {
	return Model{Common: common.Common{Styles: st}, Keys: KeyMap{Quit: keys.NewGlobal().Quit}, MinWidth: minWidth, MinHeight: minHeight, leave: "press q to quit"}
}

// WithLeave replaces "press q to quit" with the screen's own way out, e.g.
// the approval console's "press esc to cancel".
func (m Model) WithLeave(how string) Model {
	m.leave = how
	return m
}

// Sized is the view at width × height, for a screen that draws it inline:
// toosmall.New(st, w, h).WithLeave("press esc to cancel").Sized(width, height).View().
func (m Model) Sized(width, height int) Model {
	m.SetSize(width, height)
	return m
}

// View centres a short message; every line is cut to the width and the
// message to the height, however small they are.
func (m Model) View() string {
	if m.Width == 0 || m.Height == 0 {
		return ""
	}
	msg := []string{
		m.Styles.Warn.Render("Terminal too small"),
		fmt.Sprintf("%dx%d, need %dx%d", m.Width, m.Height, m.MinWidth, m.MinHeight),
		m.Styles.Muted.Render("enlarge it, or " + m.leave),
	}
	if len(msg) > m.Height {
		msg = msg[:m.Height]
	}
	out := make([]string, 0, m.Height)
	for range (m.Height - len(msg)) / 2 {
		out = append(out, "")
	}
	for _, l := range msg {
		l = common.Fit(l, m.Width)
		out = append(out, strings.Repeat(" ", (m.Width-ansi.StringWidth(l))/2)+l)
	}
	return strings.Join(out, "\n")
}
