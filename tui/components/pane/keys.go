package pane

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/prloop/gh-prloop/tui/keys"
)

// KeyMap is a pane's bindings: scrolling, enabled only while focused.
type KeyMap struct {
	keys.Scroll
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return k.Scroll.ShortHelp() }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding { return k.Scroll.FullHelp() }
