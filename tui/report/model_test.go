package report

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func loaded(t *testing.T, v View, w, h int) *Model {
	t.Helper()
	m := New(context.Background(), constant(v), 0, false, testutil.Styles())
	m.SetSize(w, h)
	m.Init()
	m.Update(fetchedMsg{seq: m.seq, view: v})
	return m
}

func TestStaleFetchIsIgnored(t *testing.T) {
	m := loaded(t, sample(), 80, 24)
	old := m.seq
	m.startFetch()
	stale := sample()
	stale.Title = "stale"
	m.Update(fetchedMsg{seq: old, view: stale})
	if v, _ := m.Current(); v.Title == "stale" {
		t.Error("a superseded fetch overwrote the view")
	}
	if !m.fetching {
		t.Error("a stale result must not end the fetch in flight")
	}
	fresh := sample()
	fresh.Title = "fresh"
	m.Update(fetchedMsg{seq: m.seq, view: fresh})
	if v, _ := m.Current(); v.Title != "fresh" || m.fetching {
		t.Errorf("current fetch not applied: %q fetching=%v", v.Title, m.fetching)
	}
}

func TestRefreshWhileFetchingIsIgnored(t *testing.T) {
	m := loaded(t, sample(), 80, 24)
	if cmd := m.startFetch(); cmd == nil {
		t.Fatal("startFetch must return the fetch command")
	}
	seq := m.seq
	if _, cmd := m.Update(press("r")); cmd != nil || m.seq != seq {
		t.Error("r during a fetch must not start another")
	}
	m.Update(fetchedMsg{seq: m.seq, view: sample()})
	if _, cmd := m.Update(press("r")); cmd == nil || m.seq != seq+1 {
		t.Error("r after the fetch must start one")
	}
}

func TestCountdown(t *testing.T) {
	m := New(context.Background(), constant(sample()), 3_500_000_000, true, testutil.Styles()) // 3.5s
	m.SetSize(80, 24)
	m.Init()
	m.Update(fetchedMsg{seq: m.seq, view: sample()})
	if m.remaining != 4 {
		t.Fatalf("3.5s rounds up to 4 ticks, got %d", m.remaining)
	}
	if !strings.Contains(m.View(), "next refresh in 4s") {
		t.Errorf("countdown not shown:\n%s", m.View())
	}
	// A tick from a cancelled countdown changes nothing.
	m.Update(tickMsg{gen: m.gen - 1})
	if m.remaining != 4 {
		t.Errorf("stale tick counted: %d", m.remaining)
	}
	for i := 0; i < 3; i++ {
		if _, cmd := m.Update(tickMsg{gen: m.gen}); cmd == nil {
			t.Fatal("each tick must schedule the next")
		}
	}
	if m.fetching || !strings.Contains(m.View(), "next refresh in 1s") {
		t.Fatalf("after 3 ticks: fetching=%v\n%s", m.fetching, m.View())
	}
	m.Update(tickMsg{gen: m.gen})
	if !m.fetching || !strings.Contains(m.View(), "refreshing…") {
		t.Errorf("the last tick must start a fetch:\n%s", m.View())
	}
	// Manual refresh cancels the countdown: its next tick is stale.
	m.Update(fetchedMsg{seq: m.seq, view: sample()})
	gen := m.gen
	m.Update(press("r"))
	m.Update(tickMsg{gen: gen})
	if m.remaining != 4 {
		t.Errorf("countdown kept running after a manual refresh: %d", m.remaining)
	}
}

func TestNoCountdownWithoutWatch(t *testing.T) {
	m := loaded(t, sample(), 80, 24)
	if strings.Contains(m.View(), "next refresh") {
		t.Error("countdown shown without --watch")
	}
	if _, cmd := m.Update(fetchedMsg{seq: m.seq, view: sample()}); cmd != nil {
		t.Error("a fetch without watch must not schedule anything")
	}
}

func TestFocusAndScroll(t *testing.T) {
	v := manyThreads(30)
	for i := range 20 {
		v.Responses = append(v.Responses, ResponseRow{Source: "review", ID: fmt.Sprint(4000 + i), CreatedAt: "2025-06-01T11:58:00Z", Commit: "abc"})
	}
	m := loaded(t, v, 80, 24)
	if !strings.Contains(m.View(), "▸ Threads (30)") {
		t.Fatalf("threads should start focused:\n%s", m.View())
	}
	for range 3 {
		m.Update(press("j"))
	}
	if m.threads.Cursor() != 3 || m.responses.Cursor() != 0 {
		t.Errorf("j moved the threads cursor to %d, responses %d", m.threads.Cursor(), m.responses.Cursor())
	}
	m.Update(press("tab"))
	if !strings.Contains(m.View(), "▸ Responses (23)") || strings.Contains(m.View(), "▸ Threads") {
		t.Fatalf("tab should focus responses:\n%s", m.View())
	}
	m.Update(press("j"))
	m.Update(press("G"))
	if m.responses.YOffset() == 0 || m.responses.Cursor() != 22 || m.threads.Cursor() != 3 {
		t.Errorf("after tab, keys must move responses only: %d, %d", m.responses.Cursor(), m.threads.Cursor())
	}
	// A refresh keeps the cursor.
	m.Update(fetchedMsg{seq: m.seq, view: v})
	if m.threads.Cursor() != 3 || m.responses.Cursor() != 22 {
		t.Errorf("refresh moved the cursors to %d, %d", m.threads.Cursor(), m.responses.Cursor())
	}
}

func TestReviewingSpinner(t *testing.T) {
	v := sample()
	v.Classification, v.Reviewing, v.SummaryState = "awaiting-response", true, "running"
	m := New(context.Background(), constant(v), 0, false, testutil.Styles())
	m.SetSize(80, 24)
	m.Init()
	_, cmd := m.Update(fetchedMsg{seq: m.seq, view: v})
	if cmd == nil {
		t.Fatal("reviewing must start the spinner")
	}
	out := m.View()
	for _, want := range []string{"AWAITING RESPONSE — Codex must answer by 2025-06-01T12:20:00Z", "Codex is reviewing… (summary: running)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, out)
		}
	}
	tick, ok := cmd().(spinner.TickMsg)
	if !ok {
		t.Fatalf("spinner command produced %T", cmd())
	}
	if _, next := m.Update(tick); next == nil {
		t.Error("the spinner must keep ticking while Codex reviews")
	}
	v.Reviewing = false
	m.Update(fetchedMsg{seq: m.seq, view: v})
	if _, next := m.Update(tick); next != nil {
		t.Error("the spinner must stop once Codex is done")
	}
	if strings.Contains(m.View(), "Codex is reviewing") {
		t.Error("reviewing line still shown")
	}
}

func TestViewErrAndNotices(t *testing.T) {
	v := sample()
	v.Err = "evaluator: 2 errors"
	v.Notices = []string{"create an environment for this repo", "usage limits", "something went wrong"}
	out := loaded(t, v, 80, 24).View()
	for _, want := range []string{"error: evaluator: 2 errors", "! notice: create an environment for this repo", "! 2 more notices"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, out)
		}
	}
	assertFits(t, out, 80, 24)
}

func TestEveryLayoutFits(t *testing.T) {
	views := map[string]View{"sample": sample(), "many": manyThreads(100), "empty": {}, "hostile": hostile()}
	for name, v := range views {
		for _, w := range []int{0, 1, 30, 59, 60, 80, 120, 200} {
			for _, h := range []int{0, 1, 15, 16, 24, 40} {
				m := loaded(t, v, w, h)
				m.Update(press("?"))
				assertFits(t, m.View(), max(w, 0), max(h, 0))
				if t.Failed() {
					t.Fatalf("%s at %dx%d", name, w, h)
				}
			}
		}
	}
}
