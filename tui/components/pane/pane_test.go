package pane

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestPane(t *testing.T) {
	m := New(testutil.Styles())
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	m.SetSize(40, 5)
	m.SetContent("Title", []string{"COLUMNS"}, lines)
	v := strings.Split(m.View(), "\n")
	if len(v) != 5 || !strings.HasPrefix(v[0], "  Title") || !strings.HasSuffix(v[0], "1-3 of 10") || v[1] != "COLUMNS" || !strings.HasPrefix(v[2], "line 0") {
		t.Fatalf("view:\n%s", strings.Join(v, "\n"))
	}
	m.Focus()
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEnd}, {Type: tea.KeyUp}} {
		m.Update(k)
	}
	if m.YOffset() != 6 {
		t.Errorf("end then up: offset %d, want 6", m.YOffset())
	}
	// New content keeps the position when it still exists, clamps otherwise.
	m.SetContent("Title", nil, lines)
	if m.YOffset() != 6 {
		t.Errorf("offset after refresh %d", m.YOffset())
	}
	m.SetContent("Title", nil, lines[:3])
	if m.YOffset() != 0 {
		t.Errorf("offset after shrinking %d", m.YOffset())
	}
	m.SetSize(0, 0)
	if m.View() != "" {
		t.Error("zero size renders nothing")
	}
}

// Owners rebuild their lines only when the width changes, and their help
// lists the pane's keys only while it has focus.
func TestResizeAndHelp(t *testing.T) {
	m := New(testutil.Styles())
	if !m.Resize(40, 5) {
		t.Error("a first width must count as a change")
	}
	if m.Resize(40, 9) {
		t.Error("a height change is not a width change")
	}
	if m.Height != 9 || m.Width != 40 {
		t.Errorf("size %dx%d, want 40x9", m.Width, m.Height)
	}
	if !m.Resize(30, 9) {
		t.Error("a new width must count as a change")
	}
	enabled := func() int {
		n := 0
		for _, b := range m.ShortHelp() {
			if b.Enabled() {
				n++
			}
		}
		return n
	}
	if enabled() != 0 {
		t.Error("an unfocused pane offers no keys")
	}
	m.Focus()
	if enabled() == 0 || len(m.FullHelp()) == 0 {
		t.Error("a focused pane offers its scroll keys")
	}
}
