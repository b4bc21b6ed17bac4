package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
	"github.com/prloop/gh-prloop/tui/theme"
)

// hostile is a View in which every string GitHub (or the classifier
// quoting GitHub) could control is an attack.
func hostile() View {
	h := testutil.Hostile
	long := testutil.Long(10000)
	return View{
		Repository: h("repo") + long, Number: 7, Title: h("title") + long, URL: h("url") + long,
		State: h("state"), Draft: true, HeadSHA: h("sha"), BaseBranch: h("base") + long, HeadBranch: h("head") + long,
		ObservedAt: h("observed"), Classification: h("class"), Action: h("action"), Reason: h("reason"),
		Message: h("message") + long, Reviewing: true, SummaryState: h("summary"),
		Request:   &RequestRow{ID: 1, CreatedAt: h("created"), HeadSHA: h("reqsha"), Deadline: h("deadline")},
		Responses: []ResponseRow{{Source: h("source"), ID: h("id") + long, CreatedAt: h("at"), Commit: h("commit")}},
		Threads: []ThreadRow{
			{Kind: "actionable", Path: h("path") + long, Line: 1, Priority: h("prio"), Title: h("ttitle") + long, Author: h("author")},
			{Kind: h("kind"), Path: h("path2"), Priority: "P0", Title: "x\n" + long, Author: h("author2") + long},
		},
		Gates:   Gates{Approvals: h("g1"), BranchProtection: h("g2"), Checks: h("g3"), Mergeability: h("g4")},
		Notices: []string{h("n1") + long, h("n2"), h("n3")},
		Cost:    h("cost") + long, Watch: true, NextRefresh: h("next"), Err: h("err") + long,
	}
}

// payloads are strings that exist only inside escape sequences of Hostile;
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

func hostileModel(st *theme.Styles, w, h int) *Model {
	m := New(context.Background(), nil, 0, true, st)
	m.SetSize(w, h)
	m.fetched(fetchedMsg{seq: m.seq, view: hostile()})
	return m
}

func TestHostileTextNeverReachesTheScreen(t *testing.T) {
	st := testutil.Styles()
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {120, 40}, {200, 60}} {
		m := hostileModel(st, sz[0], sz[1])
		for _, focusKey := range []string{"", "tab", "?"} {
			if focusKey != "" {
				m.Update(press(focusKey))
			}
			out := m.View()
			assertClean(t, "view", out, false)
			assertFits(t, out, sz[0], sz[1])
			if !strings.Contains(out, "title") {
				t.Errorf("%dx%d: sanitized title text should still be shown:\n%s", sz[0], sz[1], out)
			}
		}
	}
}

func TestHostileTextThroughTheRootModel(t *testing.T) {
	st := testutil.Styles()
	root := app.New(New(context.Background(), constant(hostile()), 0, false, st), st)
	root.Update(struct{}{}) // unknown messages are routed and ignored
	for _, sz := range [][2]int{{80, 24}, {30, 5}} {
		root.Update(teaSize(sz[0], sz[1]))
		root.Screen().(*Model).fetched(fetchedMsg{seq: root.Screen().(*Model).seq, view: hostile()})
		out := root.View()
		assertClean(t, "root", out, false)
		assertFits(t, out, sz[0], sz[1])
	}
}

func TestHostileTextWithColour(t *testing.T) {
	// With colour the renderer emits its own SGR codes; everything else
	// must still be gone.
	r := theme.NewRenderer(&bytes.Buffer{}, true)
	r.SetColorProfile(termenv.TrueColor)
	st := theme.New(r, theme.Default())
	m := hostileModel(&st, 100, 30)
	out := m.View()
	if !strings.Contains(out, "\x1b[") {
		t.Fatal("expected the colour profile to produce SGR codes")
	}
	assertClean(t, "colour view", out, true)
	for _, seq := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1b[2J", "\x1b[H"} {
		if strings.Contains(out, seq) {
			t.Errorf("non-SGR sequence %q in output", seq)
		}
	}
	assertFits(t, out, 100, 30)
}

func TestHostilePlain(t *testing.T) {
	out := Plain(hostile())
	assertClean(t, "plain", out, false)
	for i, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 2*plainText {
			t.Errorf("plain line %d is %d cells", i+1, w)
		}
	}
}
