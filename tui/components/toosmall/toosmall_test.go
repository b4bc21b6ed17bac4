package toosmall

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestFitsAnySize(t *testing.T) {
	m := New(testutil.Styles(), 60, 16)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 1}, {10, 2}, {59, 15}, {40, 30}} {
		m.SetSize(sz[0], sz[1])
		v := m.View()
		if v == "" {
			if sz[0] != 0 {
				t.Errorf("%v: empty view", sz)
			}
			continue
		}
		lines := strings.Split(v, "\n")
		if len(lines) > sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > sz[0] {
				t.Errorf("%v: line %q too wide", sz, l)
			}
		}
	}
	m.SetSize(59, 15)
	if v := m.View(); !strings.Contains(v, "59x15, need 60x16") || !strings.Contains(v, "q to quit") {
		t.Errorf("message:\n%s", v)
	}
	if len(m.Keys.ShortHelp()) != 1 {
		t.Error("quit is the only key")
	}
}

// The approval console draws the same component with its own way out.
func TestWithLeave(t *testing.T) {
	v := New(testutil.Styles(), 60, 18).WithLeave("press esc to cancel").Sized(50, 10).View()
	if !strings.Contains(v, "50x10, need 60x18") || !strings.Contains(v, "press esc to cancel") || strings.Contains(v, "q to quit") {
		t.Errorf("message:\n%s", v)
	}
}
