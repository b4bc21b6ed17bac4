package all

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
	"github.com/prloop/gh-prloop/tui/watch"
)

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func loop(repo string, n int64, round int, next status.Next, codex string) status.Loop {
	return status.Loop{
		Key: fmt.Sprintf("github-codex-pr-loop/%s/pull/%d/run/0123456789abcdef0123456789abcdef", repo, n), Repository: repo, Number: n,
		Title: "PR " + repo, Round: round, MaxRounds: 5, Automation: status.Automation{Status: "ACTIVE"},
		Request: &status.Request{CommentID: n * 10, Deadline: t0.Add(time.Duration(n) * time.Minute), Codex: codex}, Next: next,
	}
}

func sample() []status.Loop {
	wait := status.Next{Action: evaluate.ActionWait, Reason: evaluate.ReasonAwaitingResponse}
	h := loop("acme/api", 3, 5, status.Next{Action: evaluate.ActionHalt, Reason: evaluate.ReasonFixRoundLimit}, "")
	h.Automation = status.Automation{Status: "PAUSED", Reason: "fix-round-limit"}
	d := loop("acme/docs", 9, 1, status.Next{Action: evaluate.ActionDone}, status.CodexThumbsUp)
	d.FinalizedAt = t0
	return []status.Loop{
		loop("acme/widgets", 42, 1, wait, status.CodexRunning),
		loop("acme/widgets", 57, 2, status.Next{Action: evaluate.ActionAwaitApproval, PlanKind: "remediation", PlanHash: "sha256:ab"}, status.CodexAnswered),
		h, d,
		loop("octo/cli", 1200, 0, wait, ""),
	}
}

func newTable(t *testing.T, ls []status.Loop, open func(status.Loop) (watch.Screen, error), w, h int) *Model {
	t.Helper()
	m := New(Config{List: func(context.Context) ([]status.Loop, error) { return ls, nil }, Open: open, Now: func() time.Time { return t0 }}, testutil.Styles())
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.SetSize(w, h)
	m.Update(m.list()())
	return m
}

func press(m tea.Model, ks ...string) {
	for _, k := range ks {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m.Update(msg)
	}
}

func assertFits(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Errorf("%d lines in %d", len(lines), h)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Errorf("line %d: %d cells > %d", i+1, ansi.StringWidth(l), w)
		}
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, "?") || !strings.Contains(last, "quit") {
		t.Errorf("key bar without ? and quit: %q", last)
	}
}

func TestGoldenTable(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTable(t, sample(), nil, sz[0], sz[1])
			press(m, "j")
			out := m.View()
			assertFits(t, out, sz[0], sz[1])
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func TestFilter(t *testing.T) {
	m := newTable(t, sample(), nil, 100, 30)
	press(m, "/", "w", "i", "d", "g")
	if !m.CapturesKeys() {
		t.Fatal("typing a filter must keep q from quitting")
	}
	out := m.View()
	if !strings.Contains(out, "Loops (2 of 5)") || strings.Contains(out, "acme/api") || !strings.Contains(out, "acme/widgets#57") {
		t.Fatalf("filter widg:\n%s", out)
	}
	press(m, "enter")
	if m.CapturesKeys() || !strings.Contains(m.View(), "filter: widg") {
		t.Fatalf("applied filter:\n%s", m.View())
	}
	// The filter matches what the row says: a status and the next action.
	press(m, "esc", "/", "H", "A", "L", "T", "enter")
	if l, ok := m.Selected(); !ok || l.Repository != "acme/api" || len(m.shown) != 1 {
		t.Errorf("filter HALT selected %+v (%d rows)", l.Key, len(m.shown))
	}
	press(m, "esc")
	if len(m.shown) != 5 {
		t.Errorf("esc did not clear the filter: %d rows", len(m.shown))
	}
	press(m, "/", "n", "o", "p", "e", "enter")
	if !strings.Contains(m.View(), "no loop matches the filter") {
		t.Errorf("empty filter result:\n%s", m.View())
	}
}

type screen struct {
	name string
	got  []string
}

func (s *screen) Init() tea.Cmd { return nil }
func (s *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		s.got = append(s.got, k.String())
	}
	return s, nil
}
func (s *screen) View() string              { return "CONSOLE OF " + s.name }
func (s *screen) SetSize(int, int)          {}
func (s *screen) ShortHelp() []key.Binding  { return nil }
func (s *screen) FullHelp() [][]key.Binding { return nil }

func TestEnterDrillsInAndEscReturns(t *testing.T) {
	var opened []string
	var last *screen
	m := newTable(t, sample(), func(l status.Loop) (watch.Screen, error) {
		opened = append(opened, l.Key)
		last = &screen{name: fmt.Sprintf("%s#%d", l.Repository, l.Number)}
		return last, nil
	}, 100, 30)
	press(m, "j", "j", "k", "enter")
	if len(opened) != 1 || m.View() != "CONSOLE OF acme/widgets#57" {
		t.Fatalf("opened %v:\n%s", opened, m.View())
	}
	press(m, "r", "j")
	if fmt.Sprint(last.got) != "[r j]" {
		t.Errorf("keys routed to the console: %v", last.got)
	}
	press(m, "esc")
	if m.child != nil || !strings.Contains(m.View(), "Loops (5)") {
		t.Errorf("esc did not return:\n%s", m.View())
	}
	if l, _ := m.Selected(); l.Number != 57 {
		t.Errorf("cursor moved to #%d", l.Number)
	}
}

func TestHostileTable(t *testing.T) {
	ls := sample()
	h := testutil.Hostile
	ls[0].Repository, ls[0].Title, ls[0].Next.Reason, ls[0].Automation.Status = h("repo")+testutil.Long(500), h("title"), h("reason"), h("status")
	ls[2].Automation.Reason = h("pause")
	m := newTable(t, ls, nil, 80, 24)
	press(m, "/", "r", "e", "p", "o")
	for _, out := range []string{m.View()} {
		if why := testutil.Unsafe(out, true, false); why != "" {
			t.Errorf("unsafe: %s", why)
		}
		for _, p := range []string{"evil.example", "cm0gLXJmIH4="} {
			if strings.Contains(out, p) {
				t.Errorf("payload %q shown", p)
			}
		}
	}
	if !strings.Contains(m.View(), "Loops (1 of 5)") {
		t.Errorf("the sanitized repository should still match:\n%s", m.View())
	}
}

func TestThroughTheRootQIsTypedInTheFilter(t *testing.T) {
	st := testutil.Styles()
	m := newTable(t, sample(), nil, 80, 24)
	root := app.New(m, st)
	root.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "/")
	_, cmd := root.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("q in the filter quit the program")
		}
	}
	if m.filter.Value() != "q" {
		t.Errorf("filter is %q", m.filter.Value())
	}
	press(m, "enter")
	_, cmd = root.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if cmd == nil {
		t.Fatal("q outside the filter must quit")
	}
	if _, quit := cmd().(tea.QuitMsg); !quit {
		t.Error("q outside the filter must quit")
	}
}

// busyScreen is a console with a wakeup in flight.
type busyScreen struct{ screen }

func (*busyScreen) Busy() bool { return true }

// A console whose wakeup runs (it may be asking for the hand edit) is not
// left on esc: esc is its own key there.
func TestEscStaysInABusyConsole(t *testing.T) {
	var last *busyScreen
	m := newTable(t, sample(), func(l status.Loop) (watch.Screen, error) {
		last = &busyScreen{screen{name: "busy"}}
		return last, nil
	}, 100, 30)
	press(m, "enter", "esc")
	if m.child == nil || fmt.Sprint(last.got) != "[esc]" {
		t.Fatalf("esc left a busy console (keys %v)", last.got)
	}
}
