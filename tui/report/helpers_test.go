package report

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// assertFits fails when the rendered screen has more lines, or a wider
// line, than the terminal.
func assertFits(t *testing.T, screen string, width, height int) {
	t.Helper()
	if screen == "" {
		return
	}
	lines := strings.Split(screen, "\n")
	if len(lines) > height {
		t.Errorf("%d lines in a %d-line terminal", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide in a %d-cell terminal: %q…", i+1, w, width, ansi.Cut(l, 0, 100))
		}
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
