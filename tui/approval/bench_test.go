package approval

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// largeFiles is n modified files of about 860 KB each, every third line
// changed: the case that took 21 s before the console appeared when every
// diff was computed up front.
func largeFiles(n int) []File {
	var old, nw strings.Builder
	for i := 0; old.Len() < 860<<10; i++ {
		line := fmt.Sprintf("line %6d of a large generated file, padded to read like code;\n", i)
		old.WriteString(line)
		if i%3 == 0 {
			line = fmt.Sprintf("LINE %6d was changed by the plan, so the diff has work to do;\n", i)
		}
		nw.WriteString(line)
	}
	files := make([]File, n)
	for i := range files {
		files[i] = File{Path: fmt.Sprintf("gen/file%02d.txt", i), Old: old.String(), New: nw.String()}
	}
	return bindFiles(files...)
}

// BenchmarkFirstScreen is the time from the files being loaded to the first
// screen: New (which hashes every side against the plan) + SetSize + View.
func BenchmarkFirstScreen(b *testing.B) {
	v := sampleView(b)
	v.Files = largeFiles(20)
	b.ResetTimer()
	for b.Loop() {
		m := New(Config{View: v}, asciiStyles())
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
	}
}

// BenchmarkFirstDiff adds the selected file's diff to the first screen.
func BenchmarkFirstDiff(b *testing.B) {
	v := sampleView(b)
	v.Files = largeFiles(20)
	b.ResetTimer()
	for b.Loop() {
		m := New(Config{View: v}, asciiStyles())
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(m.Init()())
		_ = m.View()
	}
}

// BenchmarkAllDiffs is every diff, as the console used to compute before
// its first screen (now done in the background, one file at a time).
func BenchmarkAllDiffs(b *testing.B) {
	files := largeFiles(20)
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			_ = diffFile(f)
		}
	}
}
