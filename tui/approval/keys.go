package approval

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/prloop/gh-prloop/tui/keys"
)

// KeyMap is the console's bindings. There is deliberately no "q" to quit:
// the focused input takes letters, and a hash pasted with a stray letter
// must never close the console. Esc and ctrl+c cancel.
type KeyMap struct {
	Next   key.Binding
	Prev   key.Binding
	Submit key.Binding
	Cancel key.Binding
	Help   key.Binding
	// AddPath opens the path input (a fix round's plan, when the caller
	// can rebuild it). "+" because the hash takes every hex letter, "a"
	// included, and a hash never holds a "+".
	AddPath key.Binding
	Scroll  keys.Scroll // the focused pane's; disabled while the input has focus
}

// NewKeyMap returns the console's bindings.
func NewKeyMap() KeyMap {
	return KeyMap{
		Next:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Submit:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "approve")),
		Cancel:  key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
		Help:    keys.NewGlobal().Help,
		AddPath: key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "add path")),
		Scroll:  keys.NewScroll(),
	}
}

// ShortHelp implements help.KeyMap. Cancel and help come last: the key
// bar keeps the last two when it drops keys to fit.
func (k KeyMap) ShortHelp() []key.Binding {
	bs := append([]key.Binding{k.Next, k.Submit, k.AddPath}, k.Scroll.ShortHelp()...)
	return append(bs, k.Cancel, k.Help)
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Next, k.Prev}, {k.Submit, k.Cancel, k.AddPath, k.Help}}, k.Scroll.FullHelp()...)
}

// finishedKeys is the key map once the console has a verdict to read
// (drift or failure): scroll it, then leave.
type finishedKeys struct {
	Exit   key.Binding
	Scroll keys.Scroll
}

func newFinishedKeys() finishedKeys {
	return finishedKeys{
		Exit:   key.NewBinding(key.WithKeys("enter", "esc", "q", "ctrl+c"), key.WithHelp("enter/esc", "exit")),
		Scroll: keys.NewScroll(),
	}
}

// ShortHelp: exit last, so that a narrow key bar keeps it.
func (k finishedKeys) ShortHelp() []key.Binding {
	return append(k.Scroll.ShortHelp(), k.Exit)
}

func (k finishedKeys) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Exit}}, k.Scroll.FullHelp()...)
}
