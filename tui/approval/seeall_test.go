package approval

import (
	"io"

	"fmt"
	"github.com/muesli/termenv"
	"github.com/prloop/gh-prloop/tui/theme"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Break 2: a line longer than the pane is wrapped, never cut, so every
// character of it is on some row, in order.
func TestLongLinesWrapWhole(t *testing.T) {
	line := strings.Repeat("a", 148) + " exfiltrate()" + strings.Repeat("b", 300)
	v := sampleView(t)
	v.Files = bindFiles(File{Path: "x.go", Status: Added, New: line + "\n"})
	m := goldenModel(t, v, 80, 24)
	rows := m.diffRows(m.diffs[0], m.diff.Width)
	var joined strings.Builder
	for _, r := range rows {
		if w := ansi.StringWidth(r); w > m.diff.Width {
			t.Fatalf("row of %d cells in a pane of %d", w, m.diff.Width)
		}
		// "<n> + <text>": drop the gutter.
		joined.WriteString(ansi.Strip(r)[4:])
	}
	if joined.String() != line {
		t.Fatalf("the rows do not hold the line:\n%q", joined.String())
	}
}

// Hidden characters in the diff and the path are escapes in the warning
// colour, counted in a warning line above the diff; nothing is stripped.
func TestHiddenCharactersAreShownAndWarned(t *testing.T) {
	v := sampleView(t)
	v.Files = bindFiles(File{Path: "src/\u200bmain.go", Old: "pw := \"x\"\n", New: "pw := \"pass\U000E0041word\" // \u202eevil\n"})
	m := goldenModel(t, v, 120, 40)
	view := m.View()
	for _, want := range []string{"src/⟨U+200B⟩main.go", "pass⟨U+E0041⟩word", "⟨U+202E⟩evil", "3 hidden or control characters, shown as ⟨U+…⟩"} {
		if !strings.Contains(view, want) {
			t.Errorf("missing %q in\n%s", want, view)
		}
	}
	if strings.Contains(view, "password") {
		t.Error("an invisible tag character was stripped: the line reads as password")
	}
	if bad := unsafeText(view); bad != "" {
		t.Fatalf("unsafe %q", bad)
	}
	// In colour the escapes are drawn in the warning colour.
	st := colourStyles()
	rows := codeRows("a\u200bb", 20, paint(st.Text), paint(st.Warn))
	if len(rows) != 1 || !strings.Contains(rows[0], st.Warn.Render("⟨U+200B⟩")) {
		t.Fatalf("escape not in the warning colour: %q", rows)
	}
}

// Diffs are lazy: the first screen needs none computed, the selected file
// is computed first, then the rest, one at a time.
func TestDiffsAreComputedLazily(t *testing.T) {
	v := sampleView(t)
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	for i, d := range m.diffs {
		if d != nil {
			t.Fatalf("diff %d computed before the first screen", i)
		}
	}
	if !strings.Contains(m.View(), "computing the diff…") {
		t.Fatalf("first screen:\n%s", m.View())
	}
	cmd := m.Init()
	m.files.sel = 2 // the human moved while the first diff was computed
	_, next := m.Update(cmd())
	if m.diffs[0] == nil {
		t.Fatal("the first diff was dropped")
	}
	if next == nil {
		t.Fatal("no further diff was started")
	}
	m.Update(next())
	if m.diffs[2] == nil || m.diffs[1] != nil {
		t.Fatalf("the selected file must come next: %v %v", m.diffs[1] != nil, m.diffs[2] != nil)
	}
}

// Binary is decided by content: a NUL byte. Size or invalid UTF-8 make
// nothing binary; invalid bytes are escaped.
func TestBinaryIsDecidedByContent(t *testing.T) {
	d := diffFile(File{Status: Added, New: strings.Repeat("text line\n", 200000)}) // 2 MB
	if d.binary || d.added != 200000 {
		t.Fatalf("a large text file is text: binary %v, +%d", d.binary, d.added)
	}
	v := sampleView(t)
	v.Files = bindFiles(File{Path: "latin1.txt", Status: Added, New: "caf\xe9\n"})
	if view := goldenModel(t, v, 100, 30).View(); !strings.Contains(view, "caf⟨0xE9⟩") {
		t.Fatalf("invalid UTF-8 must be shown escaped:\n%s", view)
	}
}

// Issue 10 item 2: at 80x24 everything the plan binds is on screen without
// scrolling, the PR body included, and the operations do not point at a
// command "below" that is above.
func TestEverythingApprovedVisibleAt80x24(t *testing.T) {
	v := sampleView(t)
	v.Body = "Fixes the typo."
	m := goldenModel(t, v, 80, 24)
	view := m.View()
	for _, want := range []string{"octo-org/hello-world on github.com via remote origin", "base ", "head ", "mode ", "boundary ", "isolation", "validate ", "make lint", "title ", "body       Fixes the typo.", "operations ", "9.bootstrap-automation", "Files (3)", v.PlanHash[:8] + " " + v.PlanHash[8:16]} {
		if !strings.Contains(view, want) {
			t.Errorf("missing %q at 80x24:\n%s", want, view)
		}
	}
	if want := 1 + len(m.summaryLines(80)) + len(m.opsCompact(80)); m.summary.Height < want {
		t.Errorf("the summary needs %d rows and has %d at 80x24", want, m.summary.Height)
	}
	for _, op := range v.Operations {
		if strings.Contains(op.Description, "below") || strings.Contains(op.Description, "above") {
			t.Errorf("%s says %q", op.Name, op.Description)
		}
	}
	// At 120x40 the operations are listed in full, and the diff takes the
	// rows that are left.
	big := goldenModel(t, v, 120, 40)
	if big.opsInline || !strings.Contains(big.View(), "Operations (9, in this order)") {
		t.Fatalf("120x40:\n%s", big.View())
	}
	if got := big.diff.Height + big.summary.Height + big.ops.Height + 1 + 1 + 1 + 1; got != 40 {
		t.Errorf("rows used %d of 40", got)
	}
	// Tab to the operations at 80x24 shows them in full in place of the diff.
	for m.focus != focusOps {
		m.Update(tea.KeyMsg{Type: tea.KeyTab})
	}
	if !strings.Contains(m.View(), "Operations (9, in this order)") {
		t.Fatalf("operations not reachable at 80x24:\n%s", m.View())
	}
}

// Issue 10 item 1: live feedback while typing; a refusal keeps the input.
func TestHashEntryFeedbackAndKeptInput(t *testing.T) {
	v := sampleView(t)
	h := v.PlanHash
	m := goldenModel(t, v, 80, 24)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(h[:12])})
	if !strings.Contains(m.View(), "12 of 64, matches so far") {
		t.Fatalf("feedback:\n%s", m.View())
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("zz")})
	if !strings.Contains(m.View(), "14 of 64, group 2 differs") {
		t.Fatalf("feedback:\n%s", m.View())
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m.input.Value() != h[:12]+"zz" {
		t.Fatalf("input after refusal %q", m.input.Value())
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(l, Refusal) && (ansi.StringWidth(l) > 80 || !strings.HasSuffix(strings.TrimSpace(l), ".")) {
			t.Fatalf("refusal cut or too wide: %q", l)
		}
	}
}

// Without colour the cursor is still visible, and a long input scrolls so
// that the cursor stays on screen.
func TestCursorVisibleWithoutColourAndScrolls(t *testing.T) {
	st := asciiStyles()
	in := newHashInput(st.Text, st.Muted, "ph", 256)
	in.Focus()
	if v := in.View(20); !strings.HasPrefix(v, cursorBlock) {
		t.Fatalf("empty field without colour: %q", v)
	}
	in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("a", 100) + "END")})
	if v := in.View(20); !strings.HasSuffix(v, "END"+cursorBlock) || ansi.StringWidth(v) > 20 {
		t.Fatalf("end of a long value: %q", v)
	}
	in.Update(tea.KeyMsg{Type: tea.KeyHome})
	if v := in.View(20); !strings.HasPrefix(v, cursorBar+"aaa") || ansi.StringWidth(v) > 20 {
		t.Fatalf("start of a long value: %q", v)
	}
	for range 50 {
		in.Update(tea.KeyMsg{Type: tea.KeyRight})
	}
	if v := in.View(20); !strings.Contains(v, cursorBar) || ansi.StringWidth(v) > 20 {
		t.Fatalf("middle of a long value: %q", v)
	}
}

// Issue 10 item 3: the drift names the files whose content changed.
func TestDriftNamesChangedFiles(t *testing.T) {
	shown := bindFiles(File{Path: "a", Old: "1", New: "2"}, File{Path: "b", Status: Added, New: "x"})
	got := changedFiles(shown, map[string]string{"a": "other", "c": "id"})
	want := []string{"a (content changed)", "b (no longer changed)", "c (newly changed)"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q want %q", got, want)
	}
	if changedFiles(shown, nil) != nil {
		t.Fatal("without blobs nothing can be named")
	}
	s := DriftSummary("h", Result{Outcome: Drift, Files: got})
	if !strings.Contains(s, "changed file: a (content changed)") {
		t.Fatalf("summary %q", s)
	}
}

// colourStyles renders in true colour, to check what colour carries.
func colourStyles() *theme.Styles {
	r := theme.NewRenderer(io.Discard, true)
	r.SetColorProfile(termenv.TrueColor)
	s := theme.New(r, theme.Default())
	return &s
}
