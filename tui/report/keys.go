package report

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/prloop/gh-prloop/tui/keys"
)

// KeyMap is the report console's own bindings plus the global ones. The
// focused pane's scroll bindings are added to the help by the model.
type KeyMap struct {
	keys.Global
	Refresh key.Binding
	Focus   key.Binding
}

// NewKeyMap returns the report console's bindings.
func NewKeyMap() KeyMap {
	return KeyMap{
		Global:  keys.NewGlobal(),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Focus:   key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "switch pane")),
	}
}

// helpMap is what the footer's help renders: this screen's keys with the
// focused pane's scroll keys in the middle.
type helpMap struct {
	k      KeyMap
	scroll keys.Scroll
}

func (h helpMap) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Refresh, h.k.Focus, h.scroll.Up, h.scroll.Down, h.k.Help, h.k.Quit}
}

func (h helpMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Refresh, h.k.Focus},
		{h.scroll.Up, h.scroll.Down},
		{h.scroll.PageUp, h.scroll.PageDown},
		{h.scroll.Top, h.scroll.Bottom},
		{h.k.Help, h.k.Quit},
	}
}
