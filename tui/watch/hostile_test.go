package watch

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/testutil"
	"github.com/prloop/gh-prloop/tui/theme"
)

// payloads exist only inside the escape sequences of testutil.Hostile;
// seeing one means a sequence was shown as text, or half-stripped.
var payloads = []string{"evil.example", "cm0gLXJmIH4=", "544e", "Gf=100", "0;title"}

func assertClean(t *testing.T, name, out string, allowESC bool) {
	t.Helper()
	if why := testutil.Unsafe(out, true, allowESC); why != "" {
		t.Errorf("%s: %s", name, why)
	}
	plain := ansi.Strip(out)
	if strings.ContainsRune(plain, 0x1b) {
		t.Errorf("%s: an ESC survives outside the renderer's own sequences", name)
	}
	for _, p := range payloads {
		if strings.Contains(plain, p) {
			t.Errorf("%s: escape payload %q reached the screen", name, p)
		}
	}
}

// hostileLoop is a loop in which every string GitHub (or a receipt quoting
// it) could control is an attack, and one thread body is over 1 MB.
func hostileLoop() status.Loop {
	h := testutil.Hostile
	long := testutil.Long(5000)
	big := strings.Repeat(h("body")+"\n# heading "+h("md")+"\n[link]("+h("u")+")\n", 1<<20/200)
	l := executing()
	l.Repository, l.Title, l.URL, l.Mode, l.Key = h("repo")+long, h("title")+long, h("url"), h("mode"), h("key")
	l.Automation.Reason = h("reason")
	l.Request.HeadSHA, l.Request.Codex, l.Request.Notice = h("sha"), status.CodexNotice, h("notice")+long
	l.Next.Message, l.Next.Reason, l.Next.PlanHash = h("message")+long, h("nreason"), h("hash")
	l.Gates = []status.Gate{{Name: h("gname"), State: h("gstate"), WaitingOn: h("waits") + long}, {Name: "checks", State: "fail", WaitingOn: h("ci")}}
	l.Threads = []status.Thread{
		{ID: "T1", URL: h("turl"), Kind: "actionable", Path: h("path") + long, Line: 1, Priority: h("prio"), Title: h("ttitle") + long, Author: h("author"), Body: big},
		{ID: "T2", Kind: h("kind"), Path: h("path2"), Title: "x\n" + long, Author: h("author2") + long, Body: h("b2")},
	}
	l.Execution.Operations[0].Receipt = h("receipt") + long
	l.Execution.Operations[4] = status.Operation{Name: h("op"), State: status.OpFailed, Message: h("failure") + long}
	l.History = append(l.History, status.Entry{Time: t0, Kind: status.EntryOperation, Op: h("hop"), Receipt: h("hreceipt"), Failed: true, Message: h("hmsg") + long},
		status.Entry{Time: t0, Kind: status.EntryWakeup, Action: h("act"), Reason: h("why"), Message: h("wmsg")})
	l.MergeGate = h("merge") + "\n" + long
	l.Err = h("err")
	return l
}

func TestHostileTextRendersInert(t *testing.T) {
	if n := len(hostileLoop().Threads[0].Body); n < 1<<20 {
		t.Fatalf("the hostile body is only %d bytes", n)
	}
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {120, 40}, {200, 60}} {
		m := syncModel(t, Config{Load: constant(hostileLoop())}, sz[0], sz[1])
		for _, k := range []string{"", "?", "enter", "G", "esc", "j", "enter"} {
			if k != "" {
				pressKeys(t, m, k)
			}
			out := m.View()
			assertClean(t, k, out, false)
			assertFits(t, out, sz[0], sz[1])
		}
	}
}

func TestHostileBodyIsCutAndSaysSo(t *testing.T) {
	m := syncModel(t, Config{Load: constant(hostileLoop())}, 100, 30)
	start := time.Now()
	pressKeys(t, m, "enter")
	t.Logf("opening a 1 MB hostile body took %v", time.Since(start)) // a note, not an assertion
	pressKeys(t, m, "G")
	out := m.View()
	if !strings.Contains(out, "the first 65536 are shown") || !strings.Contains(out, "press o to read it all") {
		t.Errorf("the cut is not said:\n%s", out)
	}
	if !strings.Contains(ansi.Strip(out), "body") {
		t.Errorf("sanitized body text should still show:\n%s", out)
	}
}

func TestHostileDetailWithColour(t *testing.T) {
	// With colour the renderers (lipgloss and glamour) emit their own SGR;
	// nothing else may survive.
	r := theme.NewRenderer(&bytes.Buffer{}, true)
	r.SetColorProfile(termenv.TrueColor)
	st := theme.New(r, theme.Default())
	m := syncModel(t, Config{Load: constant(hostileLoop()), Markdown: "dark"}, 100, 30)
	m.st = &st
	m.threads = newThreadList(&st)
	m.apply(hostileLoop())
	for _, k := range []string{"", "enter"} {
		if k != "" {
			pressKeys(t, m, k)
		}
		out := m.View()
		assertClean(t, "colour "+k, out, true)
		for _, seq := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1b[2J", "\x1b[H"} {
			if strings.Contains(out, seq) {
				t.Errorf("%q: non-SGR sequence %q in output", k, seq)
			}
		}
		assertFits(t, out, 100, 30)
	}
	if !strings.Contains(m.View(), "\x1b[") {
		t.Error("expected colour in the detail view")
	}
}

func BenchmarkOpenHostileDetail(b *testing.B) {
	l := hostileLoop()
	st := testutil.Styles()
	for b.Loop() {
		d := newDetail(st, l.Threads[0], "notty")
		d.SetSize(120, 40)
		_ = d.View()
	}
}

// BenchmarkIdleSecond is one second of an idle console at 120×40: the
// clock tick (countdowns, spinner) and the redraw it causes. At one tick a
// second, ns/op ÷ 10⁷ is the percentage of one CPU.
func BenchmarkIdleSecond(b *testing.B) {
	l := awaitingApproval()
	l.Request.Codex = status.CodexRunning
	m := New(Config{Load: constant(l), Now: func() time.Time { return t0 }}, testutil.Styles())
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.SetSize(120, 40)
	m.apply(l)
	m.seconds = 1 // no reload in the measured ticks but the periodic one
	for b.Loop() {
		m.Update(tickMsg{gen: m.gen})
		_ = m.View()
	}
}
