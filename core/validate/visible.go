package validate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names a human approves must read as what they are. A name the plan binds
// (branch, remote, PR title, path) is shown on a terminal, where control
// characters are removed or act, bidi controls reorder the text around them,
// and zero-width or other format characters vanish; a model reading the
// automation prompt still sees every one of them. HiddenProblem finds such
// characters so the planner can refuse the name before a plan exists. It is
// not a rule of the document itself (the seed gives core no such rule for
// the names it binds; the title and body are bound only by digest): it is
// applied where the names are chosen.

// Hidden reports whether r is not visible as itself on a terminal: C0 and
// C1 controls and DEL, every Unicode format character (category Cf: bidi
// embeddings, overrides, isolates and marks, zero-width space and joiners,
// word joiner, invisible operators, BOM, soft hyphen, tag characters), the
// line and paragraph separators, variation selectors (including the
// Mongolian free variation selectors), and the invisible filler letters.
// It covers everything tui/sanitize removes or rewrites (and also U+FE0E
// and U+FE0F, which the sanitizer keeps for emoji presentation but which
// have no place in a name), so a name it accepts is shown as written.
func Hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case unicode.Is(unicode.Cf, r):
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef, r >= 0x180b && r <= 0x180f:
		return true
	}
	switch r {
	case 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0:
		return true
	}
	return false
}

// HiddenProblem says which hidden characters s contains, or "" when none.
// allow lists the characters the caller accepts (a PR body's "\n" and
// "\t"). Invalid UTF-8 is a problem too: it has no one reading. The answer
// names each distinct character once by code point and kind, in order of
// first appearance, e.g. `contains U+202E (bidi control), U+200B
// (invisible format character)`.
func HiddenProblem(s, allow string) string {
	var found []string
	seen := map[rune]bool{}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			if !seen[utf8.RuneError] {
				seen[utf8.RuneError] = true
				found = append(found, "invalid UTF-8")
			}
			continue
		}
		if !Hidden(r) || strings.ContainsRune(allow, r) || seen[r] {
			continue
		}
		seen[r] = true
		found = append(found, fmt.Sprintf("U+%04X (%s)", r, hiddenKind(r)))
	}
	if len(found) == 0 {
		return ""
	}
	return "contains " + strings.Join(found, ", ")
}

func hiddenKind(r rune) string {
	switch {
	case r < 0x20 || r == 0x7f:
		return "control character"
	case r >= 0x80 && r <= 0x9f:
		return "C1 control character"
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return "bidi control"
	case r == 0x200b, r == 0x200c, r == 0x200d, r == 0x2060, r == 0xfeff:
		return "zero-width character"
	case r >= 0xe0000 && r <= 0xe007f:
		return "tag character"
	case r == 0x2028, r == 0x2029:
		return "line or paragraph separator"
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef, r >= 0x180b && r <= 0x180f:
		return "variation selector"
	case unicode.Is(unicode.Cf, r):
		return "invisible format character"
	}
	return "invisible filler"
}
