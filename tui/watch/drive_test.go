package watch

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/testutil"
)

// syncModel is a console driven without a program: the clock never fires
// by itself (step calls it), and drive runs commands to completion on the
// test goroutine, feeding their messages back.
func syncModel(t *testing.T, cfg Config, w, h int) *Model {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	m := New(cfg, testutil.Styles())
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.SetSize(w, h)
	drive(t, m, m.Init())
	return m
}

// drive runs cmd and every command its messages produce. A tea.Quit ends
// the chain (as the program would).
func drive(t *testing.T, m tea.Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 1000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// step is one second of the clock.
func step(t *testing.T, m *Model) {
	t.Helper()
	drive(t, m, func() tea.Msg { return tickMsg{gen: m.gen} })
}

func pressKeys(t *testing.T, m tea.Model, ks ...string) {
	t.Helper()
	for _, k := range ks {
		_, cmd := m.Update(press(k))
		drive(t, m, cmd)
	}
}
