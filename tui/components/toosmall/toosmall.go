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

// Model is the "terminal too small" view.
type Model struct {
	common.Common
	Keys                KeyMap
	MinWidth, MinHeight int
}

// New returns the view for the given minimum size.
func New(st *theme.Styles, minWidth, minHeight int) Model {
	return Model{Common: common.Common{Styles: st}, Keys: KeyMap{Quit: keys.NewGlobal().Quit}, MinWidth: minWidth, MinHeight: minHeight}
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
		m.Styles.Muted.Render("enlarge it, or press q to quit"),
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
