package approval

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/tui/theme"
)

// UnifiedDiff draws a unified diff (git diff's output: the change a hand
// edit or a fixer made, about to be committed) with the console's diff
// renderer: every byte of every line, hidden and control characters as
// ⟨U+…⟩ in the warning colour, long lines wrapped, never cut. It returns
// the rows, how many characters are escaped, and the added and removed
// line counts.
func UnifiedDiff(st *theme.Styles, diff []byte, width int) (rows []string, hidden, added, removed int) {
	lines := parseUnified(diff)
	for _, l := range lines {
		switch l.kind {
		case lineAdded:
			added++
		case lineRemoved:
			removed++
		}
		if l.kind != lineNote {
			hidden += hiddenCount(l.text)
		}
	}
	if len(lines) == 0 {
		lines = []diffLine{{kind: lineNote, text: "the diff is empty"}}
	}
	return drawDiff(st, lines, width), hidden, added, removed
}

// parseUnified reads git diff's output line by line. Inside a hunk the
// first byte says what a line is; its number comes from the hunk header.
// Everything else (file headers, "Binary files … differ", mode lines) is
// a header, drawn escaped.
func parseUnified(diff []byte) []diffLine {
	var out []diffLine
	oldN, newN, inHunk := 0, 0, false
	for _, raw := range bytes.SplitAfter(diff, []byte("\n")) {
		if len(raw) == 0 {
			continue
		}
		line := strings.TrimSuffix(string(raw), "\n")
		if strings.HasPrefix(line, "@@ ") {
			oldN, newN, inHunk = hunkStart(line)
			out = append(out, diffLine{kind: lineHeader, text: line})
			continue
		}
		if inHunk && line != "" {
			switch line[0] {
			case '+':
				out = append(out, diffLine{kind: lineAdded, text: line[1:], num: newN})
				newN++
				continue
			case '-':
				out = append(out, diffLine{kind: lineRemoved, text: line[1:], num: oldN})
				oldN++
				continue
			case ' ':
				out = append(out, diffLine{kind: lineContext, text: line[1:], num: newN})
				oldN++
				newN++
				continue
			case '\\':
				out = append(out, diffLine{kind: lineNote, text: line})
				continue
			}
		}
		inHunk = false
		out = append(out, diffLine{kind: lineHeader, text: line})
	}
	return out
}

// hunkStart reads "@@ -a[,b] +c[,d] @@": the first old and new line numbers.
func hunkStart(h string) (oldN, newN int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	num := func(s string) (int, bool) {
		s, _, _ = strings.Cut(s[1:], ",")
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	o, ok1 := num(f[1])
	n, ok2 := num(f[2])
	return o, n, ok1 && ok2
}
