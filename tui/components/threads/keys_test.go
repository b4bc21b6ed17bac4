package threads

import tea "github.com/charmbracelet/bubbletea"

func keyDown() tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")} }
