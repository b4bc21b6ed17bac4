// Package keys holds the key bindings every screen shares. A component's
// own bindings live with the component; these are the ones a user expects
// to mean the same thing everywhere.
package keys

import "github.com/charmbracelet/bubbles/key"

// Global bindings: quitting works on every screen, including the "terminal
// too small" one, and is handled by the root model alone.
type Global struct {
	Quit key.Binding
	Help key.Binding
}

// NewGlobal returns the global bindings.
func NewGlobal() Global {
	return Global{
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "toggle help")),
	}
}

// ShortHelp implements help.KeyMap.
func (g Global) ShortHelp() []key.Binding { return []key.Binding{g.Help, g.Quit} }

// FullHelp implements help.KeyMap.
func (g Global) FullHelp() [][]key.Binding { return [][]key.Binding{g.ShortHelp()} }

// Scroll is the key map of any scrollable pane. It is separate from the
// viewport's own defaults on purpose: those bind letters (d, u, f, b, h, l)
// that screens want for commands.
type Scroll struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// NewScroll returns the scroll bindings.
func NewScroll() Scroll {
	return Scroll{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
	}
}

// ShortHelp implements help.KeyMap.
func (s Scroll) ShortHelp() []key.Binding { return []key.Binding{s.Up, s.Down} }

// FullHelp implements help.KeyMap.
func (s Scroll) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.Up, s.Down}, {s.PageUp, s.PageDown}, {s.Top, s.Bottom}}
}

// SetEnabled turns every scroll binding on or off at once, so that an
// unfocused pane neither reacts to nor advertises them.
func (s *Scroll) SetEnabled(on bool) {
	for _, b := range []*key.Binding{&s.Up, &s.Down, &s.PageUp, &s.PageDown, &s.Top, &s.Bottom} {
		b.SetEnabled(on)
	}
}
