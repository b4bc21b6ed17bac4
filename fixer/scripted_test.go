package fixer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const goFile = "package retry\n\nfunc Take() bool {\n\tif used >= max {\n\t\treturn false\n\t}\n\treturn true\n}\n"

// Each thread gets one note above its line, indented like it, in the
// file's comment syntax; two threads in one file both land on their own
// lines (bottom-up); a thread without a line or past the end appends.
func TestApplyScriptedInsertsOneNotePerThread(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "internal/retry/budget.go", goFile)
	write(t, dir, "README.md", "# widgets") // no final newline
	threads := []Thread{
		{ThreadID: "T1", Path: "internal/retry/budget.go", Line: ptr(4), Title: "Reset the budget", Body: "b"},
		{ThreadID: "T2", Path: "internal/retry/budget.go", Line: ptr(7), Title: "Second\nline \u202eevil", Body: "b"},
		{ThreadID: "T3", Path: "README.md", Title: "Document -- it", Body: "b"},
	}
	changes, err := ApplyScripted(dir, threads)
	if err != nil {
		t.Fatal(err)
	}
	want := "package retry\n\nfunc Take() bool {\n\t// prloop-sim-fix T1: Reset the budget\n\tif used >= max {\n\t\treturn false\n\t}\n" +
		"\t// prloop-sim-fix T2: Second line evil\n\treturn true\n}\n"
	if got := read(t, dir, "internal/retry/budget.go"); got != want {
		t.Fatalf("budget.go:\n%s\nwant:\n%s", got, want)
	}
	if got := read(t, dir, "README.md"); got != "# widgets\n<!-- prloop-sim-fix T3: Document - - it -->\n" {
		t.Fatalf("README.md: %q", got)
	}
	if len(changes) != 3 {
		t.Fatalf("changes: %+v", changes)
	}

	// A re-run (a fixer restarted after a crash) changes nothing.
	again, err := ApplyScripted(dir, threads)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range again {
		if !c.Skipped {
			t.Fatalf("re-run changed %+v", c)
		}
	}
	if got := read(t, dir, "internal/retry/budget.go"); got != want {
		t.Fatalf("re-run changed budget.go:\n%s", got)
	}
}

// Deterministic: the same input on the same files gives the same bytes,
// whatever the order of the threads in the input.
func TestApplyScriptedIsDeterministic(t *testing.T) {
	threads := []Thread{
		{ThreadID: "A", Path: "a.go", Line: ptr(3), Title: "x", Body: "b"},
		{ThreadID: "B", Path: "a.go", Line: ptr(3), Title: "y", Body: "b"},
	}
	var outs []string
	for _, order := range [][]Thread{threads, {threads[1], threads[0]}} {
		dir := t.TempDir()
		write(t, dir, "a.go", goFile)
		if _, err := ApplyScripted(dir, order); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, read(t, dir, "a.go"))
	}
	if outs[0] != outs[1] {
		t.Fatalf("order-dependent:\n%s\n---\n%s", outs[0], outs[1])
	}
}

// Nothing outside the working directory is read or written: not through a
// symlinked file, nor a symlinked directory; a missing file or a directory
// is an error naming the thread.
func TestApplyScriptedStaysInsideTheDirectory(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "victim.go", goFile)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "victim.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "pkg/real.go", goFile)
	for _, th := range []Thread{
		{ThreadID: "L", Path: "link.go", Line: ptr(1), Title: "t", Body: "b"},
		{ThreadID: "S", Path: "sub/victim.go", Line: ptr(1), Title: "t", Body: "b"},
		{ThreadID: "M", Path: "missing.go", Line: ptr(1), Title: "t", Body: "b"},
		{ThreadID: "D", Path: "pkg", Line: ptr(1), Title: "t", Body: "b"},
		{ThreadID: "U", Path: "../victim.go", Line: ptr(1), Title: "t", Body: "b"},
	} {
		_, err := ApplyScripted(dir, []Thread{th})
		if err == nil || !strings.Contains(err.Error(), th.ThreadID) && th.ThreadID != "U" {
			t.Errorf("%s: %v", th.Path, err)
		}
	}
	if got := read(t, outside, "victim.go"); got != goFile {
		t.Fatalf("a file outside was changed:\n%s", got)
	}
}
