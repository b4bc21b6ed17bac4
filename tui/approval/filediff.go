package approval

import (
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// lineKind is how a diff line is drawn.
type lineKind int

const (
	lineContext lineKind = iota
	lineAdded
	lineRemoved
	lineNote   // a collapsed run, a missing final newline, a cut
	lineHeader // a unified diff's file header (diff --git, index, ---, +++)
)

type diffLine struct {
	kind lineKind
	text string // raw file text, without its newline; escaped when drawn
	num  int    // line number: the old side's for a removed line, else the new side's; 0 for a note
}

// contextLines is how many unchanged lines are kept around a change, as in
// `git diff`.
const contextLines = 3

// diffTimeout bounds go-diff's search for a minimal diff of one file; past
// it the diff is correct but coarser. The default (1 s) made every large
// file cost a second before the console appeared.
const diffTimeout = 200 * time.Millisecond

// fileDiff is one file's diff and its counts. Every line of every side
// that changes is in lines: nothing approved is cut.
type fileDiff struct {
	lines          []diffLine
	added, removed int
	binary         bool
	hidden         int // escaped characters in the shown lines (see sanitize.Escape)
}

// diffFile computes the line diff of f with go-diff's line mode: lines are
// mapped to runes, diffed, and mapped back, so the result is a sequence of
// whole inserted, deleted and equal lines.
func diffFile(f File) fileDiff {
	if f.Binary {
		return fileDiff{binary: true, lines: []diffLine{{kind: lineNote, text: "binary file; contents are not shown"}}}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	a, b, table := dmp.DiffLinesToRunes(f.Old, f.New)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), table)

	var all []diffLine
	var d fileDiff
	oldN, newN := 0, 0
	for _, df := range diffs {
		kind := lineContext
		switch df.Type {
		case diffmatchpatch.DiffInsert:
			kind = lineAdded
		case diffmatchpatch.DiffDelete:
			kind = lineRemoved
		}
		for _, l := range splitLines(df.Text) {
			text, hasNL := strings.CutSuffix(l, "\n")
			num := 0
			switch kind {
			case lineAdded:
				d.added++
				newN++
				num = newN
			case lineRemoved:
				d.removed++
				oldN++
				num = oldN
			default:
				oldN++
				newN++
				num = newN
			}
			all = append(all, diffLine{kind: kind, text: text, num: num})
			if !hasNL && kind != lineContext {
				// Otherwise "x" and "x\n" would show as the same line
				// removed and added.
				all = append(all, diffLine{kind: lineNote, text: `\ No newline at end of file`})
			}
		}
	}
	d.lines = collapse(all)
	for _, l := range d.lines {
		if l.kind != lineNote {
			d.hidden += hiddenCount(l.text)
		}
	}
	if len(d.lines) == 0 {
		d.lines = []diffLine{{kind: lineNote, text: "no content change"}}
	}
	return d
}

// splitLines splits after each "\n"; the last line may lack one.
func splitLines(s string) []string {
	out := strings.SplitAfter(s, "\n")
	if n := len(out); n > 0 && out[n-1] == "" {
		out = out[:n-1]
	}
	return out
}

// collapse keeps contextLines unchanged lines on each side of a change and
// replaces each longer unchanged run with one note.
func collapse(all []diffLine) []diffLine {
	var out []diffLine
	for i := 0; i < len(all); {
		if all[i].kind != lineContext {
			out = append(out, all[i])
			i++
			continue
		}
		j := i
		for j < len(all) && all[j].kind == lineContext {
			j++
		}
		keepHead, keepTail := contextLines, contextLines
		if i == 0 {
			keepHead = 0 // nothing changed before this run
		}
		if j == len(all) {
			keepTail = 0
		}
		if n := j - i; n <= keepHead+keepTail+1 {
			out = append(out, all[i:j]...)
		} else {
			out = append(out, all[i:i+keepHead]...)
			out = append(out, diffLine{kind: lineNote, text: fmt.Sprintf("@@ %s unchanged @@", plural(n-keepHead-keepTail, "line"))})
			out = append(out, all[j-keepTail:j]...)
		}
		i = j
	}
	return out
}
