package execute

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/tui/testutil"
)

const run = "0123456789abcdef0123456789abcdef"

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newModel(stop func()) (*Model, *clock) {
	c := &clock{t: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}
	m := New([]string{"fetch-base", "run-validation", "push", "create-pr"}, run, stop, c.now, testutil.Styles())
	m.SetSize(100, 30)
	return m, c
}

func send(m *Model, e initial.Event) { m.Update(EventMsg(e)) }

func TestRowsFollowTheEvents(t *testing.T) {
	m, c := newModel(nil)
	v := m.View()
	if !strings.Contains(v, "fetch-base") || !strings.Contains(v, "ctrl+c") {
		t.Fatalf("initial view lacks the pending list or the stop key:\n%s", v)
	}
	send(m, initial.Event{Event: initial.EventStarted, Op: "fetch-base", Index: 0})
	c.t = c.t.Add(3 * time.Second)
	if v := m.View(); !strings.Contains(v, "fetch-base  3s") {
		t.Fatalf("running row lacks its elapsed time:\n%s", v)
	}
	send(m, initial.Event{Event: initial.EventFinished, Op: "fetch-base", Index: 0, Receipt: map[string]string{"base_sha": strings.Repeat("a", 40)}})
	send(m, initial.Event{Event: initial.EventStarted, Op: "run-validation", Index: 1})
	for i := 0; i < 20; i++ {
		send(m, initial.Event{Event: initial.EventOutput, Op: "run-validation", Detail: fmt.Sprintf("line %02d", i)})
	}
	v = m.View()
	if !strings.Contains(v, "line 19") || strings.Contains(v, "line 11") {
		t.Fatalf("the output tail must keep exactly the last %d lines:\n%s", tailLines, v)
	}
	send(m, initial.Event{Event: initial.EventFinished, Op: "run-validation", Index: 1, Receipt: map[string]string{}})
	send(m, initial.Event{Event: initial.EventStarted, Op: "push", Index: 2})
	send(m, initial.Event{Event: initial.EventFinished, Op: "push", Index: 2, Reconciled: true, Receipt: map[string]string{"remote_head_sha": strings.Repeat("b", 40)}})
	send(m, initial.Event{Event: initial.EventStarted, Op: "create-pr", Index: 3})
	send(m, initial.Event{Event: initial.EventFailed, Op: "create-pr", Index: 3, Detail: "create-pr halted: " + testutil.Hostile("reason")})
	v = m.View()
	for _, want := range []string{"base aaaaaaaaaaaa", "remote_head bbbbbbbbbbbb (found, not repeated)", "create-pr halted"} {
		if !strings.Contains(v, want) {
			t.Fatalf("view lacks %q:\n%s", want, v)
		}
	}
	if u := testutil.Unsafe(v, true, true); u != "" {
		t.Fatalf("remote text reached the screen unsanitized: %q", u)
	}
}

func TestCtrlCStopsBetweenOperations(t *testing.T) {
	stops := 0
	m, _ := newModel(func() { stops++ })
	send(m, initial.Event{Event: initial.EventStarted, Op: "fetch-base", Index: 0})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
	if stops != 1 {
		t.Fatalf("stop asked %d times, want once", stops)
	}
	if v := m.View(); !strings.Contains(v, "gh-prloop apply "+run) {
		t.Fatalf("the view does not say how to resume:\n%s", v)
	}
	_, cmd := m.Update(DoneMsg{Err: initial.ErrInterrupted})
	if cmd == nil || m.Err() != initial.ErrInterrupted {
		t.Fatal("DoneMsg must end the program with the executor's error")
	}
}

func TestResultSaysWhatHappensNext(t *testing.T) {
	m, _ := newModel(nil)
	send(m, initial.Event{Event: initial.EventResult, Result: &initial.Result{PRURL: "https://github.com/o/r/pull/1", AutomationKey: "k", Status: "ACTIVE", NextWakeup: "2026-03-02T10:02:00Z"}})
	v := m.View()
	if !strings.Contains(v, "https://github.com/o/r/pull/1") || !strings.Contains(v, "Automation k is ACTIVE") || !strings.Contains(v, "2026-03-02T10:02:00Z") {
		t.Fatalf("final view:\n%s", v)
	}
}
