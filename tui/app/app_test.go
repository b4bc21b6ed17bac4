package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/testutil"
)

// fakeScreen records what the root hands it.
type fakeScreen struct {
	w, h int
	msgs []tea.Msg
}

func (f *fakeScreen) Init() tea.Cmd { return func() tea.Msg { return "init" } }
func (f *fakeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	f.msgs = append(f.msgs, msg)
	return f, nil
}
func (f *fakeScreen) View() string              { return "SCREEN" }
func (f *fakeScreen) SetSize(w, h int)          { f.w, f.h = w, h }
func (f *fakeScreen) ShortHelp() []key.Binding  { return nil }
func (f *fakeScreen) FullHelp() [][]key.Binding { return nil }

func keyMsg(s string) tea.KeyMsg {
	if s == "ctrl+c" {
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestRoutesToScreen(t *testing.T) {
	s := &fakeScreen{}
	m := New(s, testutil.Styles())
	if m.Init()() != "init" {
		t.Error("Init must be the screen's")
	}
	if m.View() != "" {
		t.Error("nothing is drawn before the size is known")
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if s.w != 100 || s.h != 30 {
		t.Errorf("SetSize(%d, %d)", s.w, s.h)
	}
	if len(s.msgs) != 0 {
		t.Error("the size message is delivered through SetSize, not Update")
	}
	m.Update(keyMsg("j"))
	m.Update("custom")
	if len(s.msgs) != 2 || fmt.Sprint(s.msgs[0]) != "j" || s.msgs[1] != "custom" {
		t.Errorf("screen got %v", s.msgs)
	}
	if m.View() != "SCREEN" {
		t.Errorf("View = %q", m.View())
	}
}

func TestQuitIsGlobal(t *testing.T) {
	for _, size := range []tea.WindowSizeMsg{{Width: 100, Height: 30}, {Width: 10, Height: 5}} {
		for _, k := range []string{"q", "ctrl+c"} {
			s := &fakeScreen{}
			m := New(s, testutil.Styles())
			m.Update(size)
			if _, cmd := m.Update(keyMsg(k)); !isQuit(cmd) {
				t.Errorf("%s at %dx%d did not quit", k, size.Width, size.Height)
			}
			if len(s.msgs) != 0 {
				t.Errorf("%s reached the screen", k)
			}
		}
	}
}

func TestTooSmall(t *testing.T) {
	s := &fakeScreen{}
	m := New(s, testutil.Styles())
	for _, size := range [][2]int{{MinWidth - 1, MinHeight}, {MinWidth, MinHeight - 1}, {1, 1}, {0, 0}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := m.View()
		if strings.Contains(v, "SCREEN") {
			t.Errorf("%v: the screen was drawn below the minimum", size)
		}
		if size[0] >= 20 && !strings.Contains(v, "Terminal too small") {
			t.Errorf("%v: no explanation:\n%s", size, v)
		}
		if n := strings.Count(v, "\n") + 1; v != "" && n > size[1] {
			t.Errorf("%v: %d lines", size, n)
		}
	}
	m.Update(keyMsg("j"))
	m.Update("custom")
	if len(s.msgs) != 1 || s.msgs[0] != "custom" {
		t.Errorf("while too small, keys must not reach the screen but other messages must: %v", s.msgs)
	}
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	if m.View() != "SCREEN" {
		t.Error("the screen must come back at the minimum size")
	}
}

type capturing struct {
	fakeScreen
	on bool
}

func (c *capturing) CapturesKeys() bool { return c.on }

func TestQIsTextWhileTheScreenCapturesKeys(t *testing.T) {
	c := &capturing{on: true}
	m := New(c, testutil.Styles())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, cmd := m.Update(keyMsg("q")); isQuit(cmd) {
		t.Error("q quit while a field had the keyboard")
	}
	if n := len(c.msgs); n != 1 || c.msgs[0].(tea.KeyMsg).String() != "q" {
		t.Errorf("the screen got %v", c.msgs)
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c must always quit")
	}
	c.on = false
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q must quit when no field has the keyboard")
	}
}
