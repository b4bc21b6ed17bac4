package keys

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func press(s string) tea.KeyMsg {
	switch s {
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestGlobal(t *testing.T) {
	g := NewGlobal()
	for _, k := range []string{"q", "ctrl+c"} {
		if !key.Matches(press(k), g.Quit) {
			t.Errorf("%s should quit", k)
		}
	}
	if key.Matches(press("Q"), g.Quit) {
		t.Error("Q should not quit")
	}
	if !key.Matches(press("?"), g.Help) {
		t.Error("? should toggle help")
	}
}

func TestScrollSetEnabled(t *testing.T) {
	s := NewScroll()
	if !key.Matches(press("up"), s.Up) || !key.Matches(press("k"), s.Up) {
		t.Fatal("up/k should scroll up")
	}
	s.SetEnabled(false)
	if key.Matches(press("k"), s.Up) || key.Matches(press("j"), s.Down) {
		t.Error("disabled bindings must not match")
	}
	s.SetEnabled(true)
	if !key.Matches(press("j"), s.Down) {
		t.Error("re-enabled binding must match")
	}
}
