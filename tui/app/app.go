// Package app is the root Bubble Tea model. It only routes: it pushes the
// window size down, shows the "too small" view when the terminal is below
// the minimum, owns quitting, and hands every other message to the active
// screen. Screens own their keys and their layout.
package app

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/components/toosmall"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/theme"
)

// The smallest terminal a screen is laid out in.
const (
	MinWidth  = 60
	MinHeight = 16
)

// Screen is what the root routes to (the soft-serve component contract).
type Screen interface {
	tea.Model
	help.KeyMap
	SetSize(width, height int)
}

type state int

const (
	stateUnsized  state = iota // no size yet: render nothing rather than guess
	stateScreen                // the screen is shown
	stateTooSmall              // the terminal is below the minimum
)

// Model is the root model.
type Model struct {
	state  state
	screen Screen
	small  toosmall.Model
	keys   keys.Global
}

// New returns a root model routing to screen.
func New(screen Screen, st *theme.Styles) *Model {
	return &Model{screen: screen, small: toosmall.New(st, MinWidth, MinHeight), keys: keys.NewGlobal()}
}

// Screen returns the routed screen (for tests and for the caller's final
// state after the program ends).
func (m *Model) Screen() Screen { return m.screen }

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return m.screen.Init() }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.small.SetSize(msg.Width, msg.Height)
		m.screen.SetSize(msg.Width, msg.Height)
		m.state = stateScreen
		if msg.Width < MinWidth || msg.Height < MinHeight {
			m.state = stateTooSmall
		}
		return m, nil
	case tea.KeyMsg:
		if key.Matches(msg, m.keys.Quit) && !(msg.Type == tea.KeyRunes && m.capturing()) {
			return m, tea.Quit
		}
		if m.state != stateScreen {
			return m, nil
		}
	}
	next, cmd := m.screen.Update(msg)
	m.screen = next.(Screen)
	return m, cmd
}

// KeyCapturer is a screen that sometimes has a text field focused (a
// filter, a typed hash): while it does, a typed "q" is text, not quit.
// ctrl+c still quits.
type KeyCapturer interface{ CapturesKeys() bool }

func (m *Model) capturing() bool {
	c, ok := m.screen.(KeyCapturer)
	return ok && m.state == stateScreen && c.CapturesKeys()
}

// View implements tea.Model.
func (m *Model) View() string {
	switch m.state {
	case stateUnsized:
		return ""
	case stateTooSmall:
		return m.small.View()
	}
	return m.screen.View()
}
