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
	Open    key.Binding // the detail view of the row under the cursor
	Back    key.Binding // leave the detail view
	Browse  key.Binding // open the row (or the pull request) on github.com
	Copy    key.Binding // copy its URL
	Info    key.Binding // the detail view of the pull request itself
}

// NewKeyMap returns the report console's bindings.
func NewKeyMap() KeyMap {
	return KeyMap{
		Global:  keys.NewGlobal(),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Focus:   key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "next pane")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Back:    key.NewBinding(key.WithKeys("esc", "backspace", "enter"), key.WithHelp("esc", "back")),
		Browse:  key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open on web")),
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy link")),
		Info:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "PR details")),
	}
}

// helpMap is what the footer's help renders: this screen's keys with the
// focused pane's scroll keys in the middle. The footer drops keys from the
// end of the short help, but never the last two (? and q).
type helpMap struct {
	k      KeyMap
	scroll keys.Scroll
	detail bool
}

func (h helpMap) ShortHelp() []key.Binding {
	// One entry for both directions: the key bar is short on room.
	move := key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "move"))
	move.SetEnabled(h.scroll.Down.Enabled())
	if h.detail {
		move.SetHelp("j/k", "scroll")
		return []key.Binding{h.k.Back, move, h.k.Refresh, h.k.Browse, h.k.Copy, h.k.Help, h.k.Quit}
	}
	return []key.Binding{move, h.k.Open, h.k.Focus, h.k.Refresh, h.k.Browse, h.k.Copy, h.k.Help, h.k.Quit}
}

// FullHelp is three columns, so that it fits the smallest terminal (60
// columns) whole.
func (h helpMap) FullHelp() [][]key.Binding {
	first := []key.Binding{h.k.Open, h.k.Focus}
	if h.detail {
		first = []key.Binding{h.k.Back}
	}
	return [][]key.Binding{
		append(first, h.k.Refresh, h.k.Help, h.k.Quit),
		{h.scroll.Up, h.scroll.Down, h.scroll.PageUp, h.scroll.PageDown},
		{h.scroll.Top, h.scroll.Bottom, h.k.Browse, h.k.Copy, h.k.Info},
	}
}
