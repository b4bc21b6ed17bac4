package fixer

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"unicode"
)

// Change is what the scripted fixer did for one thread.
type Change struct {
	ThreadID string
	Path     string
	Line     int  // 1-based line of the inserted note
	Skipped  bool // the thread's note was already there (a re-run)
}

// Marker opens every note the scripted fixer writes; the thread id follows.
const Marker = "prloop-sim-fix"

// ApplyScripted makes the scripted fixer's change for every thread, inside
// dir only: above the thread's line (or at the end of the file when it has
// none, or the file is shorter) it inserts one comment line in the file's
// syntax, indented like that line, naming the thread and its title. It is
// deterministic (same input and files, same result) and idempotent per
// thread (a note already present is left alone), so a fixer re-run after
// a crash changes nothing twice. Every file is opened through an os.Root
// on dir, so no path, symlink or ".." reaches outside it.
func ApplyScripted(dir string, threads []Thread) ([]Change, error) {
	if err := Validate(threads); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// Within a file, bottom-up: an insertion never moves a later target.
	order := slices.Clone(threads)
	slices.SortStableFunc(order, func(a, b Thread) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if c := cmp.Compare(lineOf(b), lineOf(a)); c != 0 {
			return c
		}
		return strings.Compare(a.ThreadID, b.ThreadID)
	})
	var changes []Change
	for _, t := range order {
		ch, err := applyOne(root, t)
		if err != nil {
			return changes, fmt.Errorf("thread %s (%s): %w", t.ThreadID, t.Path, err)
		}
		changes = append(changes, ch)
	}
	return changes, nil
}

func lineOf(t Thread) int {
	if t.Line == nil {
		return 1 << 30
	}
	return *t.Line
}

func applyOne(root *os.Root, t Thread) (Change, error) {
	name := t.Path // CheckPath made it relative and clean; Root keeps it inside
	st, err := root.Lstat(name)
	if err != nil {
		return Change{}, err
	}
	if !st.Mode().IsRegular() {
		return Change{}, fmt.Errorf("not a regular file")
	}
	data, err := root.ReadFile(name)
	if err != nil {
		return Change{}, err
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	tag := Marker + " " + t.ThreadID + ":"
	for i, l := range lines {
		if strings.Contains(l, tag) {
			return Change{ThreadID: t.ThreadID, Path: t.Path, Line: i + 1, Skipped: true}, nil
		}
	}
	at := len(lines) // 0-based insertion index
	if t.Line != nil && *t.Line <= len(lines) {
		at = *t.Line - 1
	}
	indent := ""
	if at < len(lines) {
		l := lines[at]
		indent = l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	}
	note := indent + comment(path.Ext(t.Path), tag+" "+flat(t.Title)) + "\n"
	if at == len(lines) && at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += "\n"
	}
	lines = slices.Insert(lines, at, note)
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
	}
	if err := root.WriteFile(name, buf.Bytes(), st.Mode().Perm()); err != nil {
		return Change{}, err
	}
	return Change{ThreadID: t.ThreadID, Path: t.Path, Line: at + 1}, nil
}

// comment wraps text in the line-comment syntax of a file type.
func comment(ext, text string) string {
	switch strings.ToLower(ext) {
	case ".go", ".c", ".h", ".cc", ".cpp", ".java", ".js", ".ts", ".tsx", ".jsx", ".rs", ".swift", ".kt", ".scala", ".cs":
		return "// " + text
	case ".md", ".html", ".htm", ".xml", ".svg":
		return "<!-- " + strings.ReplaceAll(text, "--", "- -") + " -->"
	case ".sql", ".lua", ".hs":
		return "-- " + text
	}
	return "# " + text
}

// flat makes an untrusted title one printable line of at most 120 runes.
func flat(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 120 {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case !unicode.IsPrint(r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
