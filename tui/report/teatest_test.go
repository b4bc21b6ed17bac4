package report

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
)

const waitLong = 5 * time.Second

// manualTick replaces the wall-clock countdown: each receive on the
// returned channel lets exactly one pending countdown step fire.
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
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func keyEsc() tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyEsc} }

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

// finalView quits and returns the last frame the root model would draw.
func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	tm.Send(press("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(waitLong))
	return fm.(*app.Model).View()
}

func constant(v View) Fetch {
	return func(context.Context) (View, error) { return v, nil }
}

func TestGolden80x24(t *testing.T) {
	st := testutil.Styles()
	m := New(context.Background(), constant(sample()), 0, false, st)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "FINDINGS", "Non-Codex")
	out := finalView(t, tm)
	assertFits(t, out, 80, 24)
	teatest.RequireEqualOutput(t, []byte(out))
}

func TestGolden120x40Watch(t *testing.T) {
	st := testutil.Styles()
	m := New(context.Background(), constant(sample()), 30*time.Second, true, st)
	manualTick(t, m)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "FINDINGS", "next refresh in 30s")
	out := finalView(t, tm)
	assertFits(t, out, 120, 40)
	teatest.RequireEqualOutput(t, []byte(out))
}

func TestGoldenFullHelp(t *testing.T) {
	st := testutil.Styles()
	m := New(context.Background(), constant(sample()), 0, false, st)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "FINDINGS")
	tm.Send(press("?"))
	waitFor(t, tm, "page down")
	out := finalView(t, tm)
	assertFits(t, out, 80, 24)
	teatest.RequireEqualOutput(t, []byte(out))
}

func TestWatchRefreshChangesScreen(t *testing.T) {
	before := sample()
	before.Classification, before.Threads, before.Responses = "awaiting-response", nil, nil
	before.Title = "First observation"
	after := sample()
	after.Title = "Second observation"

	var calls atomic.Int32
	fetch := func(context.Context) (View, error) {
		if calls.Add(1) == 1 {
			return before, nil
		}
		return after, nil
	}
	st := testutil.Styles()
	m := New(context.Background(), fetch, 2*time.Second, true, st)
	advance := manualTick(t, m)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(80, 24))

	waitFor(t, tm, "First observation", "AWAITING RESPONSE", "next refresh in 2s")
	advance <- struct{}{}
	waitFor(t, tm, "next refresh in 1s")
	if n := calls.Load(); n != 1 {
		t.Fatalf("fetched %d times before the countdown ran out", n)
	}
	advance <- struct{}{}
	waitFor(t, tm, "Second observation", "FINDINGS — 2 actionable threads", "next refresh in 2s")

	out := finalView(t, tm)
	if calls.Load() != 2 {
		t.Errorf("fetched %d times, want 2", calls.Load())
	}
	if strings.Contains(out, "First observation") || !strings.Contains(out, "Second observation") {
		t.Errorf("final screen does not show the refreshed view:\n%s", out)
	}
}

func TestFetchErrorKeepsLastGoodView(t *testing.T) {
	var calls atomic.Int32
	fetch := func(context.Context) (View, error) {
		if calls.Add(1) == 1 {
			return sample(), nil
		}
		return View{Title: "must not be shown"}, errors.New("HTTP 502 from \x1b]52;c;cm0gLXJmIH4=\aapi.github.com")
	}
	st := testutil.Styles()
	m := New(context.Background(), fetch, 0, false, st)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "FINDINGS")
	tm.Send(press("r"))
	waitFor(t, tm, "refresh failed: HTTP 502 from api.github.com (showing the last good report)")

	out := finalView(t, tm)
	if !strings.Contains(out, "Add retry with exponential backoff") || strings.Contains(out, "must not be shown") {
		t.Errorf("the last good view was not kept:\n%s", out)
	}
	if why := testutil.Unsafe(out, true, false); why != "" {
		t.Errorf("error text reached the screen unsanitized: %s", why)
	}
	v, fetchErr := m.Current()
	if v.Title != sample().Title || fetchErr == "" {
		t.Errorf("Current() = %q, %q", v.Title, fetchErr)
	}
}

func TestFirstFetchErrorShowsStatus(t *testing.T) {
	fetch := func(context.Context) (View, error) { return View{}, errors.New("not authenticated") }
	st := testutil.Styles()
	m := New(context.Background(), fetch, 0, false, st)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "could not load the pull request: not authenticated")
	out := finalView(t, tm)
	if !strings.Contains(out, "LOADING") || strings.Contains(out, "last good report") {
		t.Errorf("unexpected screen:\n%s", out)
	}
}

func TestTooSmallThenResized(t *testing.T) {
	st := testutil.Styles()
	m := New(context.Background(), constant(sample()), 0, false, st)
	tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(59, 16))
	waitFor(t, tm, "Terminal too small", "59x16, need 60x16")
	tm.Send(tea.WindowSizeMsg{Width: 60, Height: 16})
	waitFor(t, tm, "FINDINGS")
	tm.Send(tea.WindowSizeMsg{Width: 80, Height: 15})
	waitFor(t, tm, "80x15, need 60x16")
	out := finalView(t, tm)
	if !strings.Contains(out, "Terminal too small") {
		t.Errorf("final screen:\n%s", out)
	}
	assertFits(t, out, 80, 15)
}
