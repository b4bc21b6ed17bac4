package approval

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

func TestCheckAddPath(t *testing.T) {
	scope := []string{"internal/retry/budget.go"}
	for _, bad := range []string{"", "../x.go", "/etc/passwd", "a/../b.go", "./a.go", "a//b.go", "a\\b.go", ".git", ".git/config", "a\x1bb", "internal/retry/budget.go", ".."} {
		if err := CheckAddPath(bad, scope); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	for _, good := range []string{"README.md", "docs/retry.md", ".github/workflows/ci.yml", "a/.gitignore"} {
		if err := CheckAddPath(good, scope); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

// step runs one message and the commands it produces, to the end.
func step(t *testing.T, m *Model, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
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
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// + opens the path input only when the caller can rebuild the plan; a
// refused or failed addition keeps the plan; a rebuilt plan replaces the
// view and clears what was typed, so only its hash can be approved.
func TestAddPathRebuildsTheView(t *testing.T) {
	v := sampleView(t)
	v.Scope = []string{"internal/retry/budget.go"}
	var c calls
	m := New(c.config(v, RecheckResult{}, ""), asciiStyles())
	m.SetSize(120, 40)
	if strings.Contains(m.View(), "add path") {
		t.Fatal("+ add path is offered without AddPath")
	}
	step(t, m, runes("+"))
	if m.state != stateReview || m.input.Value() != "+" {
		t.Fatalf("without AddPath + is typed into the hash field (state %d, %q)", m.state, m.input.Value())
	}

	rebuilt := v
	rebuilt.PlanHash = strings.Repeat("e", 64)
	var added []string
	fail := errors.New("the loop is busy")
	cfg := c.config(v, RecheckResult{}, "")
	cfg.AddPath = func(_ context.Context, p string) (View, error) {
		added = append(added, p)
		if p == "busy.md" {
			return View{}, fail
		}
		return rebuilt, nil
	}
	m = New(cfg, asciiStyles())
	m.SetSize(120, 40)
	for _, r := range v.PlanHash[:10] {
		step(t, m, runes(string(r)))
	}
	step(t, m, runes("+"))
	if m.state != stateAddPath || !strings.Contains(ansi.Strip(m.View()), "Add path") {
		t.Fatalf("+ did not open the path input:\n%s", m.View())
	}
	for _, k := range []tea.Msg{runes("../x"), tea.KeyMsg{Type: tea.KeyEnter}} {
		step(t, m, k)
	}
	if len(added) != 0 || !strings.Contains(ansi.Strip(m.View()), "Not added") {
		t.Fatalf("a bad path reached AddPath (%v):\n%s", added, m.View())
	}
	step(t, m, tea.KeyMsg{Type: tea.KeyCtrlU})
	step(t, m, runes("busy.md"))
	step(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.state != stateAddPath || !strings.Contains(ansi.Strip(m.View()), "the loop is busy") || m.PlanHash() != v.PlanHash {
		t.Fatalf("a failed AddPath: state %d\n%s", m.state, m.View())
	}
	step(t, m, tea.KeyMsg{Type: tea.KeyCtrlU})
	step(t, m, runes("docs/retry.md"))
	step(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.state != stateReview || m.PlanHash() != rebuilt.PlanHash || m.input.Value() != "" {
		t.Fatalf("after AddPath: state %d hash %s typed %q", m.state, m.PlanHash(), m.input.Value())
	}
	if s := ansi.Strip(m.View()); !strings.Contains(s, "Added docs/retry.md") || !strings.Contains(s, "eeeeeeee eeeeeeee") {
		t.Fatalf("the rebuilt plan is not shown:\n%s", s)
	}
	for _, r := range v.PlanHash {
		step(t, m, runes(string(r)))
	}
	step(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if rc, rec := c.counts(); rc != 0 || rec != 0 || !strings.Contains(m.View(), Refusal) {
		t.Fatalf("the old hash was taken (rechecks %d, records %d)", rc, rec)
	}
}

// Goldens of the path input (typed, and a refusal) and of the rebuilt
// plan, at every size.
func TestGoldenAddPath(t *testing.T) {
	v := sampleView(t)
	rebuilt := v
	rebuilt.PlanHash = strings.Repeat("e", 64)
	for _, sz := range goldenSizes {
		for _, c := range []struct {
			name  string
			keys  []tea.Msg
			addOK bool
		}{
			{"typing", []tea.Msg{runes("+"), runes("docs/retry.md")}, false},
			{"refused", []tea.Msg{runes("+"), runes("../etc/passwd"), tea.KeyMsg{Type: tea.KeyEnter}}, false},
			{"rebuilt", []tea.Msg{runes("+"), runes("docs/retry.md"), tea.KeyMsg{Type: tea.KeyEnter}}, true},
		} {
			t.Run(sz.name+"-"+c.name, func(t *testing.T) {
				m := New(Config{View: v, AddPath: func(context.Context, string) (View, error) { return rebuilt, nil }}, asciiStyles())
				m.Update(tea.WindowSizeMsg{Width: sz.width, Height: sz.height})
				settle(m)
				for _, k := range c.keys {
					step(t, m, k)
				}
				settle(m)
				requireAddPathGolden(t, m.View())
			})
		}
	}
}

func requireAddPathGolden(t *testing.T, out string) {
	t.Helper()
	golden.RequireEqual(t, []byte(out))
}
