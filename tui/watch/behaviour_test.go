package watch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/loop/status"
)

func TestThreadCursorAndDetail(t *testing.T) {
	m := syncModel(t, Config{Load: constant(awaitingApproval())}, 80, 24)
	pressKeys(t, m, "j")
	if th, _ := m.threads.selected(); th.ID != "PRRT_2" {
		t.Fatalf("cursor on %q after j", th.ID)
	}
	pressKeys(t, m, "k", "k", "enter")
	out := m.View()
	assertFits(t, out, 80, 24)
	assertKeyBar(t, out)
	for _, want := range []string{"Retry loop never gives up on a 4xx", "internal/fetch/loop.go:88", "@chatgpt-codex-connector[bot]", "stop on 4xx", "resp, err := get()", "esc back"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "P1 — Retry loop") || strings.Contains(out, "```") || strings.Contains(out, "<sub>") || strings.Contains(out, "Image") {
		t.Errorf("markdown was not rendered:\n%s", out)
	}
	pressKeys(t, m, "esc")
	if m.detail != nil || !strings.Contains(m.View(), "Threads (4)") {
		t.Errorf("esc did not return to the list:\n%s", m.View())
	}
}

func TestGoldenDetail(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sizeName(sz), func(t *testing.T) {
			m := syncModel(t, Config{Load: constant(awaitingApproval())}, sz[0], sz[1])
			pressKeys(t, m, "enter")
			out := m.View()
			assertFits(t, out, sz[0], sz[1])
			assertKeyBar(t, out)
			requireGolden(t, out)
		})
	}
}

func TestCursorSurvivesRefresh(t *testing.T) {
	l := awaitingApproval()
	m := syncModel(t, Config{Load: constant(l)}, 80, 24)
	pressKeys(t, m, "j", "j")
	// the refreshed loop lists the threads in another order
	l.Threads = []status.Thread{l.Threads[2], l.Threads[0], l.Threads[1], l.Threads[3]}
	m.apply(l)
	if th, _ := m.threads.selected(); th.ID != "PRRT_3" {
		t.Errorf("cursor moved to %q on refresh", th.ID)
	}
}

func TestBrowseAndCopyTheSelectedThread(t *testing.T) {
	var opened, copied []string
	m := syncModel(t, Config{
		Load:   constant(awaitingApproval()),
		Browse: func(u string) error { opened = append(opened, u); return nil },
		Copy:   func(s string) error { copied = append(copied, s); return nil },
	}, 80, 24)
	pressKeys(t, m, "o", "j", "y", "enter", "j", "o")
	want := []string{"https://github.com/acme/widgets/pull/42#discussion_r1", "https://github.com/acme/widgets/pull/42#discussion_r2"}
	if fmt.Sprint(opened) != fmt.Sprint([]string{want[0], want[1]}) || fmt.Sprint(copied) != fmt.Sprint(want[1:]) {
		t.Errorf("opened %v, copied %v", opened, copied)
	}
	if !strings.Contains(m.View(), "opened https://github.com/acme/widgets/pull/42#discussion_r2 in the browser") {
		t.Errorf("no confirmation:\n%s", m.View())
	}
	// Without threads, o opens the pull request.
	opened = nil
	m2 := syncModel(t, Config{Load: constant(waiting()), Browse: func(u string) error { opened = append(opened, u); return errors.New("no browser \x1b[31m") }}, 80, 24)
	pressKeys(t, m2, "o")
	if len(opened) != 1 || opened[0] != "https://github.com/acme/widgets/pull/42" {
		t.Errorf("opened %v", opened)
	}
	if out := m2.View(); !strings.Contains(out, "opening the browser failed: no browser") || strings.Contains(out, "\x1b") {
		t.Errorf("error not shown sanitized:\n%q", out)
	}
}

// fakeLoop is a loop whose wakeups are counted and scripted.
type fakeLoop struct {
	mu      sync.Mutex
	loads   int
	wakeups int
	loadFn  func(n int) (status.Loop, error)
	wakeFn  func(n int, progress func(status.Loop)) (status.Loop, error)
	ctxs    []context.Context
}

func (f *fakeLoop) load(context.Context) (status.Loop, error) {
	f.mu.Lock()
	f.loads++
	n := f.loads
	f.mu.Unlock()
	return f.loadFn(n)
}

func (f *fakeLoop) wakeup(ctx context.Context, p func(status.Loop)) (status.Loop, error) {
	f.mu.Lock()
	f.wakeups++
	n := f.wakeups
	f.ctxs = append(f.ctxs, ctx)
	f.mu.Unlock()
	return f.wakeFn(n, p)
}

func (f *fakeLoop) count() (loads, wakeups int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loads, f.wakeups
}

func TestWakeupOnKeyAndOnSchedule(t *testing.T) {
	now := t0
	l := waiting()
	l.NextWakeup = t0.Add(2 * time.Second)
	f := &fakeLoop{
		loadFn: func(int) (status.Loop, error) { return l, nil },
		wakeFn: func(n int, _ func(status.Loop)) (status.Loop, error) {
			w := waiting()
			w.History = append(w.History, status.Entry{Time: now, Kind: status.EntryWakeup, Action: "wait", Reason: fmt.Sprintf("wakeup-%d", n), Points: 1})
			w.NextWakeup = now.Add(2 * time.Minute)
			return w, nil
		},
	}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup, Now: func() time.Time { return now }}, 120, 40)
	if _, w := f.count(); w != 0 {
		t.Fatalf("woke up %d times before anything was due", w)
	}
	pressKeys(t, m, "r")
	if _, w := f.count(); w != 1 || !strings.Contains(m.View(), "wakeup-1") {
		t.Fatalf("r: %d wakeups\n%s", w, m.View())
	}
	// the wakeup moved the next one two minutes out: a tick does nothing
	now = now.Add(time.Second)
	step(t, m)
	if _, w := f.count(); w != 1 {
		t.Fatalf("a tick before the rrule woke up (%d)", w)
	}
	now = t0.Add(2*time.Minute + time.Second)
	step(t, m)
	if _, w := f.count(); w != 2 || !strings.Contains(m.View(), "wakeup-2") {
		t.Fatalf("the rrule did not wake up (%d)\n%s", w, m.View())
	}
}

func TestScheduledWakeupFiresOncePerDueTime(t *testing.T) {
	l := waiting()
	l.NextWakeup = t0.Add(-time.Second) // overdue, and the wakeup does not move it
	f := &fakeLoop{loadFn: func(int) (status.Loop, error) { return l, nil }, wakeFn: func(int, func(status.Loop)) (status.Loop, error) { return l, nil }}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup}, 80, 24)
	for range 5 {
		step(t, m)
	}
	if _, w := f.count(); w != 1 {
		t.Errorf("%d wakeups for one due time", w)
	}
}

func TestNoScheduledWakeupWhenHaltedOrDone(t *testing.T) {
	for _, l := range []status.Loop{halted(evaluate.ReasonPRClosed, ""), finalized()} {
		l.NextWakeup = t0.Add(-time.Minute)
		f := &fakeLoop{loadFn: func(int) (status.Loop, error) { return l, nil }, wakeFn: func(int, func(status.Loop)) (status.Loop, error) { return l, nil }}
		m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup}, 80, 24)
		step(t, m)
		if _, w := f.count(); w != 0 {
			t.Errorf("%s: woke up", l.Phase())
		}
	}
}

func TestLockHeldByAnotherWakeup(t *testing.T) {
	held := waiting()
	held.Lock = status.Lock{HeldBy: "scheduled wakeup (pid 4242)"}
	after := waiting()
	after.History = append(after.History, status.Entry{Time: t0, Kind: status.EntryWakeup, Action: "wait", Reason: "by-the-timer", Points: 1})
	var released atomic.Bool
	f := &fakeLoop{
		loadFn: func(int) (status.Loop, error) {
			if released.Load() {
				return after, nil
			}
			return held, nil
		},
		wakeFn: func(int, func(status.Loop)) (status.Loop, error) {
			return status.Loop{}, fmt.Errorf("wakeup: %w", status.ErrLocked)
		},
	}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup}, 120, 40)
	pressKeys(t, m, "r")
	out := m.View()
	if !strings.Contains(out, "another wakeup holds the lock; the screen refreshes when it is released") || strings.Contains(out, "wakeup failed") {
		t.Fatalf("lock not explained:\n%s", out)
	}
	loads, _ := f.count()
	step(t, m) // still held: it reads again, every second
	if l2, _ := f.count(); l2 != loads+1 || !m.lockWait {
		t.Fatalf("loads %d → %d, lockWait %v", loads, l2, m.lockWait)
	}
	released.Store(true)
	step(t, m)
	out = m.View()
	if m.lockWait || !strings.Contains(out, "by-the-timer") || strings.Contains(out, "holds the lock") {
		t.Errorf("did not refresh after the lock was released:\n%s", out)
	}
	if _, w := f.count(); w != 1 {
		t.Errorf("%d wakeups: the console must not retry while another holds the lock", w)
	}
}

func TestNotifiesWhenApprovalIsNeededOrTheLoopHalts(t *testing.T) {
	var got []Notification
	seq := []status.Loop{waiting(), awaitingApproval(), awaitingApproval(), executing(), halted(evaluate.ReasonHeadDrift, "x"), halted(evaluate.ReasonHeadDrift, "x")}
	f := &fakeLoop{loadFn: func(int) (status.Loop, error) { return seq[0], nil }, wakeFn: func(n int, _ func(status.Loop)) (status.Loop, error) { return seq[n], nil }}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup, Notify: func(n Notification) { got = append(got, n) }}, 80, 24)
	for range len(seq) - 1 {
		pressKeys(t, m, "r")
	}
	if len(got) != 2 {
		t.Fatalf("notifications: %+v", got)
	}
	if got[0].Title != "gh-prloop: approval needed" || !strings.Contains(got[0].Body, "acme/widgets#42") || !strings.Contains(got[0].Body, "remediation") {
		t.Errorf("approval notification: %+v", got[0])
	}
	if got[1].Title != "gh-prloop: halted" || !strings.Contains(got[1].Body, "someone else pushed") {
		t.Errorf("halt notification: %+v", got[1])
	}
	// Opening the console on a loop that already waits rings nothing.
	got = nil
	syncModel(t, Config{Load: constant(halted(evaluate.ReasonPRClosed, "")), Notify: func(n Notification) { got = append(got, n) }}, 80, 24)
	if len(got) != 0 {
		t.Errorf("rang on open: %+v", got)
	}
}

func TestNotificationSequence(t *testing.T) {
	n := Notification{Title: "gh-prloop: halted", Body: "evil\x07\x1b]52;c;cm0gLXJmIH4=\x07 #42"}
	if s := Sequence(n, false); s != "\a" {
		t.Errorf("bell only: %q", s)
	}
	s := Sequence(n, true)
	if !strings.HasPrefix(s, "\a\x1b]9;gh-prloop: halted: evil") || !strings.HasSuffix(s, "\x07") {
		t.Fatalf("osc 9: %q", s)
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(s, "\a\x1b]9;"), "\x07")
	if strings.ContainsAny(inner, "\x1b\x07") || strings.Contains(inner, "cm0gLXJmIH4=") {
		t.Errorf("the notification text can end the sequence early: %q", inner)
	}
	for env, want := range map[string]bool{"iTerm.app": true, "WezTerm": true, "Apple_Terminal": false, "": false} {
		got := SupportsOSC9(func(k string) string {
			if k == "TERM_PROGRAM" {
				return env
			}
			return ""
		})
		if got != want {
			t.Errorf("TERM_PROGRAM=%q: %v", env, got)
		}
	}
	if !SupportsOSC9(func(k string) string { return map[string]string{"WT_SESSION": "x"}[k] }) {
		t.Error("Windows Terminal shows OSC 9")
	}
}

func TestProgressShowsOperationsLive(t *testing.T) {
	release := make(chan struct{})
	shown := make(chan struct{})
	ex := executing()
	done := executing()
	done.Execution = nil
	done.Next = status.Next{Action: evaluate.ActionWait, Reason: evaluate.ReasonAwaitingResponse}
	f := &fakeLoop{
		loadFn: func(int) (status.Loop, error) { return awaitingApproval(), nil },
		wakeFn: func(_ int, p func(status.Loop)) (status.Loop, error) {
			p(ex)
			<-release
			return done, nil
		},
	}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup}, 80, 24)
	_, cmd := m.Update(press("r"))
	driven := make(chan struct{})
	go func() {
		defer close(driven)
		// the first message is the progress snapshot
		msg := cmd()
		_, next := m.Update(msg)
		close(shown)
		<-release
		drive(t, m, next)
	}()
	<-shown
	if out := m.View(); !strings.Contains(out, "EXECUTING") || !strings.Contains(out, "push") || !strings.Contains(out, "waking up") {
		t.Errorf("live operations not shown:\n%s", out)
	}
	close(release)
	m.Wait()
	<-driven
	if m.Busy() || !strings.Contains(m.View(), "WAITING") {
		t.Fatalf("the wakeup's end never reached the console:\n%s", m.View())
	}
}

func TestClosingNeverInterruptsTheWakeup(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeLoop{
		loadFn: func(int) (status.Loop, error) { return waiting(), nil },
		wakeFn: func(int, func(status.Loop)) (status.Loop, error) {
			close(started)
			<-release
			finished.Store(true)
			return waiting(), nil
		},
	}
	m := syncModel(t, Config{Context: ctx, Load: f.load, Wakeup: f.wakeup}, 80, 24)
	_, _ = m.Update(press("r")) // started; the program is then closed
	cancel()
	<-started
	waited := make(chan struct{})
	go func() { m.Wait(); close(waited) }()
	select {
	case <-waited:
		t.Fatal("Wait returned while the wakeup was still running")
	default:
	}
	f.mu.Lock()
	wctx := f.ctxs[0]
	f.mu.Unlock()
	if wctx.Err() != nil {
		t.Error("the wakeup's context was cancelled with the console's")
	}
	close(release)
	<-waited
	if !finished.Load() {
		t.Error("Wait returned before the wakeup finished")
	}
}

// fakeApproval is an approval screen that quits on enter.
type fakeApproval struct {
	keys []string
}

func (a *fakeApproval) Init() tea.Cmd { return nil }
func (a *fakeApproval) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		a.keys = append(a.keys, k.String())
		if k.Type == tea.KeyEnter {
			return a, tea.Quit
		}
	}
	return a, nil
}
func (a *fakeApproval) View() string              { return "FAKE APPROVAL SCREEN" }
func (a *fakeApproval) SetSize(int, int)          {}
func (a *fakeApproval) ShortHelp() []key.Binding  { return nil }
func (a *fakeApproval) FullHelp() [][]key.Binding { return nil }

func TestApprovalInPlace(t *testing.T) {
	scr := &fakeApproval{}
	opened := 0
	f := &fakeLoop{
		loadFn: func(int) (status.Loop, error) { return waiting(), nil },
		wakeFn: func(n int, _ func(status.Loop)) (status.Loop, error) {
			if n == 1 {
				return awaitingApproval(), nil
			}
			return executing(), nil
		},
	}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup, Approval: func(l status.Loop) (Screen, error) {
		opened++
		if l.Next.PlanHash == "" {
			t.Error("approval opened without a plan hash")
		}
		return scr, nil
	}}, 80, 24)
	pressKeys(t, m, "r")
	if opened != 1 || m.View() != "FAKE APPROVAL SCREEN" || !m.CapturesKeys() {
		t.Fatalf("did not switch to the approval screen (opened %d):\n%s", opened, m.View())
	}
	pressKeys(t, m, "q", "9", "enter")
	if fmt.Sprint(scr.keys) != "[q 9 enter]" {
		t.Errorf("keys reached the approval screen as %v", scr.keys)
	}
	if m.child != nil || m.CapturesKeys() {
		t.Fatal("the approval screen's quit did not return to the console")
	}
	if _, w := f.count(); w != 2 || !strings.Contains(m.View(), "EXECUTING") {
		t.Errorf("after approval: %d wakeups\n%s", w, m.View())
	}
}

func TestApprovalCancelledIsNotReopenedForTheSamePlan(t *testing.T) {
	scr := &fakeApproval{}
	opened := 0
	m := syncModel(t, Config{Load: constant(awaitingApproval()), Approval: func(status.Loop) (Screen, error) { opened++; return scr, nil }}, 80, 24)
	pressKeys(t, m, "enter") // the screen ends (cancel or approve)
	step(t, m)
	for range reloadEvery {
		step(t, m)
	}
	if opened != 1 {
		t.Fatalf("reopened %d times for one plan", opened)
	}
	if out := m.View(); !strings.Contains(out, "press a to review and approve it here") || !strings.Contains(out, "a approve") {
		t.Errorf("no way back to the approval:\n%s", out)
	}
	pressKeys(t, m, "a")
	if opened != 2 {
		t.Errorf("a did not reopen the approval (%d)", opened)
	}
}

// A load overtaken by a wakeup is dropped, and the periodic rereads of the
// state directory carry on afterwards.
func TestRereadsContinueAfterAnOvertakenLoad(t *testing.T) {
	f := &fakeLoop{loadFn: func(int) (status.Loop, error) { return waiting(), nil }, wakeFn: func(int, func(status.Loop)) (status.Loop, error) { return waiting(), nil }}
	m := syncModel(t, Config{Load: f.load, Wakeup: f.wakeup}, 80, 24)
	stale := m.load()    // a load in flight…
	pressKeys(t, m, "r") // …overtaken by a wakeup
	drive(t, m, stale)
	before, _ := f.count()
	for range reloadEvery {
		step(t, m)
	}
	if after, _ := f.count(); after <= before {
		t.Errorf("no reread after an overtaken load (%d → %d)", before, after)
	}
}

// asyncApproval ends only when the result of its own command comes back,
// as the real approval screen does (enter starts a re-check; its message
// records the approval and quits).
type asyncApproval struct {
	fakeApproval
	checked bool
}

type asyncCheckedMsg struct{}

func (a *asyncApproval) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		a.keys = append(a.keys, msg.String())
		if msg.Type == tea.KeyEnter {
			return a, func() tea.Msg { return asyncCheckedMsg{} }
		}
	case asyncCheckedMsg:
		a.checked = true
		return a, tea.Quit
	}
	return a, nil
}

// The approval screen's own messages reach it: a screen that finishes by
// way of a command's result returns to the console (they were dropped, so
// an approval typed in the watch console never got recorded).
func TestApprovalScreenReceivesItsOwnMessages(t *testing.T) {
	scr := &asyncApproval{}
	m := syncModel(t, Config{Load: constant(awaitingApproval()), Approval: func(status.Loop) (Screen, error) { return scr, nil }}, 80, 24)
	if m.child == nil {
		t.Fatal("the approval screen did not open")
	}
	pressKeys(t, m, "enter")
	if !scr.checked {
		t.Fatal("the approval screen's command result never reached it")
	}
	if m.child != nil {
		t.Fatal("the approval screen's quit did not return to the console")
	}
}
