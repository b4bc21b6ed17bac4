package theme

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// Styles is every style the interface uses, built once from a Theme and a
// renderer and shared by all components (one struct, as gh-dash does), so
// that colour decisions live in one place.
type Styles struct {
	Glyphs Glyphs

	Title    lipgloss.Style // repository#number and PR title
	Text     lipgloss.Style
	Muted    lipgloss.Style // secondary information
	Rule     lipgloss.Style
	Section  lipgloss.Style // pane and group headings
	Focused  lipgloss.Style // heading of the focused pane
	Column   lipgloss.Style // table column headings
	Banner   lipgloss.Style // classification line
	Warn     lipgloss.Style
	Error    lipgloss.Style
	Selected lipgloss.Style

	Pass, Fail, Pending, Unknown lipgloss.Style // gate and badge states

	Help help.Styles
}

// New builds the Styles for t on renderer r (see NewRenderer).
func New(r *lipgloss.Renderer, t Theme) Styles {
	s := r.NewStyle
	hs := help.Styles{
		ShortKey:       s().Foreground(t.Muted).Bold(true),
		ShortDesc:      s().Foreground(t.Muted),
		ShortSeparator: s().Foreground(t.Border),
		Ellipsis:       s().Foreground(t.Border),
		FullKey:        s().Foreground(t.Muted).Bold(true),
		FullDesc:       s().Foreground(t.Muted),
		FullSeparator:  s().Foreground(t.Border),
	}
	return Styles{
		Glyphs:   t.Glyphs,
		Title:    s().Foreground(t.Text).Bold(true),
		Text:     s().Foreground(t.Text),
		Muted:    s().Foreground(t.Muted),
		Rule:     s().Foreground(t.Border),
		Section:  s().Foreground(t.Muted).Bold(true),
		Focused:  s().Foreground(t.Accent).Bold(true),
		Column:   s().Foreground(t.Muted).Underline(true),
		Banner:   s().Foreground(t.Accent).Bold(true),
		Warn:     s().Foreground(t.Warn),
		Error:    s().Foreground(t.Fail).Bold(true),
		Selected: s().Foreground(t.Accent),
		Pass:     s().Foreground(t.Pass),
		Fail:     s().Foreground(t.Fail).Bold(true),
		Pending:  s().Foreground(t.Pending),
		Unknown:  s().Foreground(t.Unknown),
		Help:     hs,
	}
}
