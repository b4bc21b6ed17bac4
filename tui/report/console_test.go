package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
)

// The three terminal sizes every console point is checked at: the
// smallest the console supports, the classic default and a large one.
var consoleSizes = [][2]int{{60, 18}, {80, 24}, {120, 40}}

func eachSize(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, s := range consoleSizes {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) { f(t, s[0], s[1]) })
	}
}

// checkFrame is what holds on every screen: it fits, and the key bar
// keeps help and quit however narrow the terminal.
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	assertFits(t, out, w, h)
	lines := strings.Split(out, "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "? toggle help") || !strings.Contains(last, "q quit") {
		t.Errorf("the key bar lost ? or q: %q", last)
	}
}

// detailed is sample with a long, hostile root comment and web addresses.
func detailed() View {
	v := sample()
	v.Threads[0].Body = "**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange)</sub></sub>  Retry loop never gives up on a 4xx**\n\n" +
		"The loop retries every error, including 404 and 422, which will never succeed. \x1b[31mStop\x1b[0m retrying client errors and surface them to the caller; only 429 and 5xx are transient.\u202e"
	v.Threads[0].URL = "https://github.com/acme/widgets/pull/42#discussion_r5001"
	v.Threads[0].Path = "internal/fetch/a/very/long/directory/name/that/does/not/fit/in/the/list/loop.go"
	v.Responses[0].URL = "https://github.com/acme/widgets/pull/42#pullrequestreview-3001"
	return v
}

// While the first fetch runs, the console names the pull request asked
// for and says it is loading; it never claims there are no threads.
func TestGoldenLoadingNamesThePR(t *testing.T) {
	eachSize(t, func(t *testing.T, w, h int) {
		release := make(chan struct{})
		t.Cleanup(func() { close(release) })
		fetch := func(ctx context.Context) (View, error) {
			<-release
			return View{}, context.Canceled
		}
		st := testutil.Styles()
		m := New(context.Background(), fetch, 0, false, st)
		m.SetTarget("acme/widgets", 42, false)
		tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(w, h))
		waitFor(t, tm, "loading")
		out := finalView(t, tm)
		checkFrame(t, out, w, h)
		if !strings.Contains(out, "acme/widgets#42") || strings.Contains(out, "unknown repository") {
			t.Errorf("the PR asked for is not named:\n%s", out)
		}
		if strings.Contains(out, "no review threads") || strings.Contains(out, "no Codex responses") || strings.Contains(out, "no review request") {
			t.Errorf("claims emptiness while loading:\n%s", out)
		}
		teatest.RequireEqualOutput(t, []byte(out))
	})
}

// A notice from the GitHub client (a retry, a rate-limit wait) goes to the
// status line while the console runs — never over the screen — and to
// stderr once it has ended.
func TestGoldenClientNoticeOnTheStatusLine(t *testing.T) {
	eachSize(t, func(t *testing.T, w, h int) {
		var stderr bytes.Buffer
		status := NewStatus(&stderr)
		second := make(chan struct{})
		t.Cleanup(func() { close(second) })
		var calls int
		var mu sync.Mutex
		fetch := func(ctx context.Context) (View, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n == 1 {
				return sample(), nil
			}
			status.Notify("GitHub request failed (connection reset); retry 2 of 4; waiting 2s")
			<-second
			return View{}, context.Canceled
		}
		st := testutil.Styles()
		m := New(context.Background(), fetch, 0, false, st)
		tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(w, h))
		status.attach(tm.Send)
		waitFor(t, tm, "FINDINGS")
		tm.Send(press("r"))
		waitFor(t, tm, "retry 2 of 4")
		if stderr.Len() != 0 {
			t.Errorf("printed over the console: %q", stderr.String())
		}
		out := finalView(t, tm)
		checkFrame(t, out, w, h)
		status.detach()
		if !strings.Contains(stderr.String(), "gh-prloop: GitHub request failed (connection reset); retry 2 of 4") {
			t.Errorf("after the console, stderr has %q", stderr.String())
		}
		teatest.RequireEqualOutput(t, []byte(out))
	})
}

// j moves the row cursor, enter opens every field of the row in full,
// sanitized and wrapped; o and y act on its web address; esc goes back.
func TestGoldenDetailView(t *testing.T) {
	eachSize(t, func(t *testing.T, w, h int) {
		st := testutil.Styles()
		m := New(context.Background(), constant(detailed()), 0, false, st)
		var opened, copied []string
		var mu sync.Mutex
		m.SetActions(
			func(u string) error { mu.Lock(); opened = append(opened, u); mu.Unlock(); return nil },
			func(u string) error { mu.Lock(); copied = append(copied, u); mu.Unlock(); return nil },
		)
		tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(w, h))
		waitFor(t, tm, "FINDINGS")
		tm.Send(press("enter"))
		tm.Send(press("G")) // to the end of the text
		waitFor(t, tm, "esc back", "transient")
		tm.Send(press("y"))
		waitFor(t, tm, "copied to the clipboard")
		tm.Send(press("o"))
		waitFor(t, tm, "opened in the browser")
		out := finalView(t, tm)
		checkFrame(t, out, w, h)
		if strings.ContainsAny(out, "\x1b\u202e") {
			t.Errorf("remote text reached the screen unsanitized: %q", out)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(opened) != 1 || len(copied) != 1 || opened[0] != copied[0] || copied[0] != "https://github.com/acme/widgets/pull/42#discussion_r5001" {
			t.Errorf("o opened %q, y copied %q", opened, copied)
		}
		teatest.RequireEqualOutput(t, []byte(out))
	})
}

// Everything a list cut short can be read in full in the detail view, at
// every size: scrolling it from top to bottom shows the whole path, title
// and comment, wrapped and sanitized.
func TestDetailShowsEverythingInFull(t *testing.T) {
	eachSize(t, func(t *testing.T, w, h int) {
		m := loaded(t, detailed(), w, h)
		m.Update(press("enter"))
		seen := m.View()
		for range 40 {
			m.Update(press("j"))
			seen += "\n" + m.View()
		}
		assertFits(t, m.View(), w, h)
		flat := strings.Join(strings.Fields(seen), " ")
		for _, want := range []string{
			"Stop retrying client errors", // the body, beyond the list's one line
			"only 429 and 5xx are transient.",
			"internal/fetch/a/very/long/directory", // the full path, wrapped
			"the/list/loop.go",
			"https://github.com/acme/widgets/pull/42#dis",
			"priority P1",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("detail never shows %q:\n%s", want, m.View())
			}
		}
		if strings.ContainsAny(seen, "\x1b\u202e") {
			t.Errorf("remote text reached the screen unsanitized")
		}
	})
}

// The cursor moves through the rows of the focused list; enter opens the
// row under it, esc returns to the lists with the cursor where it was.
func TestCursorChoosesTheDetailAndEscReturns(t *testing.T) {
	m := loaded(t, detailed(), 80, 24)
	m.Update(press("j"))
	m.Update(press("enter"))
	if m.detail == nil || !strings.Contains(m.View(), "Jitter uses math/rand without a seed") || !strings.Contains(m.View(), "Thread internal/fetch/backoff.go:12") {
		t.Fatalf("enter on the second row:\n%s", m.View())
	}
	m.Update(keyEsc())
	if m.detail != nil || m.threads.Cursor() != 1 {
		t.Fatalf("esc: detail %v, cursor %d", m.detail != nil, m.threads.Cursor())
	}
	m.Update(press("tab"))
	m.Update(press("enter"))
	if !strings.Contains(m.View(), "pullrequestreview-3001") || !strings.Contains(m.View(), "deadline") {
		t.Fatalf("enter on the first response:\n%s", m.View())
	}
}

// o and y act only on a web address: a row without one says so.
func TestActionsNeedAWebAddress(t *testing.T) {
	m := loaded(t, sample(), 80, 24) // sample's rows have no URL
	called := false
	m.SetActions(func(string) error { called = true; return nil }, func(string) error { called = true; return nil })
	for _, k := range []string{"o", "y"} {
		_, cmd := m.Update(press(k))
		msg := cmd()
		m.Update(msg)
		if called || !strings.Contains(m.View(), "no web address") {
			t.Errorf("%s on a row without a URL: called %v\n%s", k, called, m.View())
		}
	}
}

// The header says when the data comes from the simulator.
func TestGoldenSimulatorHeader(t *testing.T) {
	eachSize(t, func(t *testing.T, w, h int) {
		st := testutil.Styles()
		m := New(context.Background(), constant(sample()), 0, false, st)
		m.SetTarget("acme/widgets", 42, true)
		tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(w, h))
		waitFor(t, tm, "FINDINGS")
		out := finalView(t, tm)
		checkFrame(t, out, w, h)
		if !strings.Contains(strings.Split(out, "\n")[1], "SIMULATOR") {
			t.Errorf("header does not say simulator:\n%s", out)
		}
		teatest.RequireEqualOutput(t, []byte(out))
	})
}

// A browser that cannot be started is reported with the fix, not the
// launcher's error text.
func TestBrowserFailureNamesTheFix(t *testing.T) {
	m := loaded(t, detailed(), 120, 40)
	m.SetActions(func(string) error { return errors.New(`exec: "xdg-open": executable file not found in $PATH`) }, nil)
	_, cmd := m.Update(press("o"))
	m.Update(cmd())
	if v := m.View(); !strings.Contains(v, "could not open a browser (set GH_BROWSER or BROWSER)") || strings.Contains(v, "exec:") {
		t.Errorf("status line:\n%s", v)
	}
}

// i (or enter on an empty list) shows the pull request itself in full:
// the title, head commit and message the header and banner cut short.
func TestPullRequestDetailShowsWhatTheHeaderCuts(t *testing.T) {
	v := sample()
	v.Title = "A very long pull request title that cannot fit in a sixty column header line at all, really"
	m := loaded(t, v, 60, 18)
	m.Update(press("i"))
	seen := m.View()
	for range 30 {
		m.Update(press("j"))
		seen += "\n" + m.View()
	}
	flat := strings.Join(strings.Fields(seen), " ")
	for _, want := range []string{"header line at all, really", "0123456789abcdef0123456789abcdef01234567", "2 actionable Codex threads on the current head", "cost 5 requests"} {
		if !strings.Contains(flat, want) {
			t.Errorf("PR detail never shows %q", want)
		}
	}
	// A refresh keeps the PR detail open and where it was scrolled.
	off := m.detail.pane.YOffset()
	m.Update(fetchedMsg{seq: m.seq, view: v})
	if m.detail == nil || !m.detail.pr || m.detail.pane.YOffset() != off {
		t.Errorf("refresh: detail %v, offset %d want %d", m.detail != nil, m.detail.pane.YOffset(), off)
	}
}
