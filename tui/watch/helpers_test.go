package watch

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
)

const waitLong = 5 * time.Second

// manualTick replaces the wall clock: each receive on the returned channel
// lets exactly one pending clock step fire.
func manualTick(t *testing.T, m *Model) chan<- struct{} {
	advance := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	m.tick = func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg {
			select {
			case <-advance:
				return fn(time.Time{})
			case <-done:
				return nil
			}
		}
	}
	return advance
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func waitFor(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitLong), teatest.WithCheckInterval(10*time.Millisecond))
}

func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	tm.Send(press("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(waitLong))
	return fm.(*app.Model).View()
}

func assertFits(t *testing.T, screen string, width, height int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) > height {
		t.Errorf("%d lines in a %d-line terminal", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide in a %d-cell terminal: %q", i+1, w, width, l)
		}
	}
}

// keyBar is the last line: the short help.
func assertKeyBar(t *testing.T, screen string) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "? ") || !strings.Contains(last, "q quit") {
		t.Errorf("the key bar does not show ? and q: %q", last)
	}
}

func constant(l status.Loop) func(context.Context) (status.Loop, error) {
	return func(context.Context) (status.Loop, error) { return l, nil }
}

// newModel is a console on a fixed clock with a hand-stepped tick.
func newModel(t *testing.T, cfg Config) (*Model, chan<- struct{}) {
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	m := New(cfg, testutil.Styles())
	return m, manualTick(t, m)
}

// render draws m at w×h without a program: load applied, no tick.
func render(t *testing.T, l status.Loop, w, h int) string {
	t.Helper()
	m, _ := newModel(t, Config{Load: constant(l)})
	m.SetSize(w, h)
	m.apply(l)
	return m.View()
}
