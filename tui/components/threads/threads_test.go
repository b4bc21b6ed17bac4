package threads

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestGrouped(t *testing.T) {
	rows := []Row{
		{Kind: "non-codex", Title: "n"}, {Kind: "weird", Title: "w"}, {Kind: "actionable", Title: "a1"},
		{Kind: "resolved", Title: "r"}, {Kind: "actionable", Title: "a2"}, {Kind: "eligible", Title: "e"},
	}
	var got []string
	for _, s := range Grouped(rows) {
		var titles []string
		for _, r := range s.Rows {
			titles = append(titles, r.Title)
		}
		got = append(got, s.Heading+":"+strings.Join(titles, ","))
	}
	want := "Actionable:a1,a2 Eligible:e Non-Codex:n Resolved:r Other:w"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	if len(Grouped(nil)) != 0 {
		t.Error("no rows, no groups")
	}
}

func TestLocationAndAuthor(t *testing.T) {
	if got := Location(Row{Path: "a/b.go", Line: 12}); got != "a/b.go:12" {
		t.Errorf("got %q", got)
	}
	if got := Location(Row{Path: "a/b.go"}); got != "a/b.go" {
		t.Errorf("file-level thread: got %q", got)
	}
	if Author(Row{Kind: "actionable", Author: "bot"}) != "" || Author(Row{Kind: "non-codex", Author: "octo\x1b[1mcat"}) != "octocat" {
		t.Error("author shown only (sanitized) for threads not rooted by Codex")
	}
}

func TestRenderAndScroll(t *testing.T) {
	m := New(testutil.Styles())
	var rows []Row
	for i := range 20 {
		rows = append(rows, Row{Kind: "actionable", Path: "f.go", Line: int64(i + 1), Priority: "P1", Title: "t"})
	}
	m.SetData(rows)
	m.SetSize(60, 6)
	v := m.View()
	if !strings.HasPrefix(v, "  Threads (20)") || !strings.Contains(v, "1-5 of 21") {
		t.Errorf("unfocused heading and position:\n%s", v)
	}
	if !strings.Contains(v, "    f.go:1   P1   t") {
		t.Errorf("row layout:\n%s", v)
	}
	m.Update(keyDown())
	if r, _ := m.Selected(); m.YOffset() != 0 || r.Line != 1 {
		t.Error("an unfocused pane must not move")
	}
	if strings.Contains(m.View(), "▸   f.go") || strings.Contains(m.View(), "▸ f.go") {
		t.Errorf("an unfocused pane shows no cursor:\n%s", m.View())
	}
	m.Focus()
	// j moves the row cursor, marked with a glyph (visible without colour);
	// the view follows it once it leaves the screen.
	m.Update(keyDown())
	if r, _ := m.Selected(); r.Line != 2 || m.YOffset() != 0 || !strings.Contains(m.View(), "▸   f.go:2") {
		t.Errorf("focused pane: cursor on line %d, offset %d\n%s", r.Line, m.YOffset(), m.View())
	}
	for range 6 {
		m.Update(keyDown())
	}
	if r, _ := m.Selected(); r.Line != 8 || m.YOffset() != 4 || !strings.Contains(m.View(), "▸   f.go:8") {
		t.Errorf("cursor on line %d, offset %d\n%s", r.Line, m.YOffset(), m.View())
	}
	if !strings.HasPrefix(m.View(), "▸ Threads (20)") {
		t.Errorf("focused heading:\n%s", m.View())
	}
	if len(m.ShortHelp()) == 0 {
		t.Error("focused pane advertises its keys")
	}
	m.Blur()
	for _, b := range m.ShortHelp() {
		if b.Enabled() {
			t.Error("blurred pane advertises enabled keys")
		}
	}
}
