// Package footer renders the bottom of a screen: a status line (errors
// first), an information line (refresh countdown, cost) and the key help.
package footer

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Data is what the footer shows. Error wins over Status; both, like Info,
// may quote remote text and are sanitized here.
type Data struct {
	Error  string
	Status string
	Info   []string
}

// KeyMap is empty: help is toggled by the screen that owns the footer.
type KeyMap = common.NoKeys

// Model is the footer component.
type Model struct {
	common.Common
	Keys KeyMap
	data Data
	help help.Model
}

// New returns an empty footer.
func New(st *theme.Styles) Model {
	h := help.New()
	h.Styles = st.Help
	return Model{Common: common.Common{Styles: st}, help: h}
}

// SetData replaces what is shown.
func (m *Model) SetData(d Data) { m.data = d }

// SetSize implements the component contract.
func (m *Model) SetSize(width, height int) {
	m.Common.SetSize(width, height)
	m.help.Width = m.Width
}

// ShowAll switches between the one-line and the full help.
func (m *Model) ShowAll(all bool) { m.help.ShowAll = all }

// ShowingAll reports whether the full help is shown.
func (m Model) ShowingAll() bool { return m.help.ShowAll }

func (m Model) lines(km help.KeyMap) []string {
	st, w := m.Styles, m.Width
	var out []string
	switch {
	case m.data.Error != "":
		out = append(out, st.Error.Render(sanitize.Line(m.data.Error, w)))
	case m.data.Status != "":
		out = append(out, st.Muted.Render(sanitize.Line(m.data.Status, w)))
	}
	var info []string
	for _, s := range m.data.Info {
		if s = sanitize.Line(s, w); s != "" {
			info = append(info, s)
		}
	}
	if len(info) > 0 {
		out = append(out, st.Muted.Render(common.Fit(strings.Join(info, " "+st.Glyphs.Sep+" "), w)))
	}
	if km != nil && !m.help.ShowAll {
		out = append(out, m.shortHelp(km.ShortHelp()))
	} else if km != nil {
		for _, l := range strings.Split(m.help.View(km), "\n") {
			out = append(out, common.Fit(l, w))
		}
	}
	return out
}

// shortHelp is the one-line key bar (see KeyBar).
func (m Model) shortHelp(bs []key.Binding) string { return KeyBar(m.help, bs, m.Width) }

// KeyBar is a one-line key bar of width cells. When it does not fit, keys
// are dropped from the end, but never the last two of the list (help and
// quit or cancel, by convention): a user must always see how to get help
// and how to leave. Every screen's short help goes through it.
func KeyBar(h help.Model, bs []key.Binding, width int) string {
	var on []key.Binding
	for _, b := range bs {
		if b.Enabled() {
			on = append(on, b)
		}
	}
	h.Width = 0 // measure, do not let help cut the line with an ellipsis
	for len(on) > 2 && ansi.StringWidth(h.ShortHelpView(on)) > width {
		on = append(on[:len(on)-3], on[len(on)-2:]...)
	}
	return common.Fit(h.ShortHelpView(on), width)
}

// Height is the number of lines View(km) renders.
func (m Model) Height(km help.KeyMap) int { return len(m.lines(km)) }

// View renders the footer with the help of km.
func (m Model) View(km help.KeyMap) string {
	if m.Width == 0 {
		return ""
	}
	return strings.Join(m.lines(km), "\n")
}
