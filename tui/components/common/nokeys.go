package common

import "github.com/charmbracelet/bubbles/key"

// NoKeys is the KeyMap of a component that takes no keys (gates, header,
// banner, footer): every component has a KeyMap, so a screen can compose
// help without knowing which ones are passive.
type NoKeys struct{}

// ShortHelp implements help.KeyMap.
func (NoKeys) ShortHelp() []key.Binding { return nil }

// FullHelp implements help.KeyMap.
func (NoKeys) FullHelp() [][]key.Binding { return nil }
