// Package sanitize turns untrusted text (anything read from GitHub: titles,
// branch names, paths, comment bodies, author logins) into text that is safe
// to write to a terminal.
//
// A terminal executes what it is sent. A pull-request title that carries an
// escape sequence can move the cursor and overwrite the approval prompt, set
// the clipboard (OSC 52), disguise a link (OSC 8), or change the window
// title; bidi overrides can make a line read differently from what it
// contains, and invisible characters can hide text from the reviewer while a
// model still reads it. Every remote string therefore goes through Text or
// Line before any view sees it; views never print raw remote text.
//
// Decisions, so that every caller can rely on them:
//   - escape sequences (CSI, OSC, DCS, SOS, PM, APC, nF and single-byte
//     escapes, and their C1 forms) are removed whole, payload included; a
//     string sequence with no terminator swallows the rest of the input,
//     exactly as a terminal would have;
//   - C0 controls are removed except "\n"; "\t" becomes four spaces; "\r\n"
//     becomes "\n" and a lone "\r" (which would let text overwrite itself)
//     becomes "\n"; U+2028/U+2029 become "\n";
//   - C1 controls (U+0080–U+009F) and DEL are removed;
//   - every Unicode format character (category Cf: bidi embeddings,
//     overrides, isolates and marks, zero-width space/joiners, word joiner,
//     invisible operators, BOM, soft hyphen, tag characters) is removed. This
//     includes ZERO WIDTH JOINER, so an emoji ZWJ sequence shows as its parts;
//     that is the price of never hiding text;
//   - variation selectors are removed except U+FE0E and U+FE0F, which only
//     choose text or emoji presentation of the character before them;
//     the other selectors (and Mongolian free variation selectors) are the
//     usual carrier for smuggling hidden bytes;
//   - invisible "filler" letters (Hangul fillers, U+034F, Khmer inherent
//     vowels) are removed;
//   - more than MaxCombining combining marks in a row are cut, so that
//     stacked marks cannot spill over neighbouring lines;
//   - invalid UTF-8 becomes U+FFFD, one per invalid byte.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// MaxCombining is the number of consecutive combining marks kept after a
// base character. Real scripts need far fewer; "Zalgo" text needs more.
const MaxCombining = 8

// Ellipsis ends a line that Line had to shorten.
const Ellipsis = "…"

const tabSpaces = "    "

// Text returns s with everything a terminal would interpret, and every
// character that is invisible or reorders text, removed. The result is valid
// UTF-8, contains no control character other than "\n", and Text(Text(s)) ==
// Text(s).
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	marks := 0
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
			marks = 0
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
			marks = 0
			i++
			continue
		}
		switch r {
		case 0x1b:
			i = skipEscape(s, i+1)
			continue
		case 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case 0x90, 0x98, 0x9d, 0x9e, 0x9f: // C1 DCS, SOS, OSC, PM, APC
			i = skipString(s, i+size)
			continue
		}
		i += size
		switch {
		case r == '\n' || r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
			marks = 0
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				continue // the "\n" itself is written next
			}
			b.WriteByte('\n')
			marks = 0
		case r == '\t':
			b.WriteString(tabSpaces)
			marks = 0
		case dropped(r):
			// A removed character does not reset the combining-mark count;
			// otherwise Text would not be idempotent.
		case unicode.In(r, unicode.Mn, unicode.Me):
			marks++
			if marks <= MaxCombining {
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r)
			marks = 0
		}
	}
	return b.String()
}

// Line returns s as one line at most max terminal cells wide: sanitized as
// by Text, each run of line breaks replaced by one space, leading and
// trailing space trimmed, and the end replaced by Ellipsis when it does not
// fit. max <= 0 gives "". Widths are measured as lipgloss measures them, so a
// Line always fits the cell budget a layout gave it.
//
// Only the first 256+16*max bytes of s are read: real text needs far less
// per cell (CJK 1.5 bytes, an emoji with modifiers under 6), so a 64 KiB
// comment costs the same as a title when only 80 cells of it can be shown.
// Input that spends the budget on escape codes, invisible characters or
// stacked marks shows less; that was the sender's choice, and the cut is
// still marked with Ellipsis.
func Line(s string, max int) string {
	if max <= 0 {
		return ""
	}
	cut := false
	if limit := budgetSlack + max*bytesPerCell; len(s) > limit {
		for limit > 0 && !utf8.RuneStart(s[limit]) {
			limit--
		}
		s, cut = s[:limit], true
	}
	t := strings.TrimSpace(oneLine(Text(s)))
	out := ansi.Truncate(t, max, Ellipsis)
	if cut && !strings.HasSuffix(out, Ellipsis) {
		out = ansi.Truncate(t, max-1, "") + Ellipsis
	}
	// ansi.Truncate and ansi.StringWidth can disagree about a cluster (a
	// presentation selector after a space is one cell to the first and two
	// to the second); layouts measure with StringWidth, so shrink until that
	// agrees the line fits.
	for n := max - 1; n >= 0 && ansi.StringWidth(out) > max; n-- {
		out = ansi.Truncate(t, n, "") + Ellipsis
	}
	return out
}

// oneLine replaces each run of "\n" with one space.
func oneLine(t string) string {
	if strings.IndexByte(t, '\n') < 0 {
		return t
	}
	var b strings.Builder
	b.Grow(len(t))
	inBreak := false
	for _, r := range t {
		if r == '\n' {
			inBreak = true
			continue
		}
		if inBreak {
			b.WriteByte(' ')
			inBreak = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

const (
	bytesPerCell = 16
	budgetSlack  = 256 // a leading escape sequence or two
)

// dropped reports whether r is removed outright: controls, format
// characters, non-presentation variation selectors and invisible fillers.
func dropped(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xfe00 && r <= 0xfe0d, r >= 0xe0100 && r <= 0xe01ef:
		return true
	case r >= 0x180b && r <= 0x180f:
		return true
	}
	switch r {
	case 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0:
		return true
	}
	return false
}

// skipEscape returns the index just past the escape sequence whose ESC was
// at j-1. A lone ESC (at the end, or before a byte that starts no sequence)
// is removed alone and the byte after it is processed normally.
func skipEscape(s string, j int) int {
	if j >= len(s) {
		return j
	}
	switch c := s[j]; {
	case c == '[':
		return skipCSI(s, j+1)
	case c == ']', c == 'P', c == 'X', c == '^', c == '_':
		return skipString(s, j+1)
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then one final byte
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: ESC and one byte
		return j + 1
	}
	return j
}

// skipCSI returns the index past a control sequence's final byte. A byte
// that cannot occur inside a CSI ends it without being consumed, so a stray
// "ESC [" never eats the text after it.
func skipCSI(s string, j int) int {
	for j < len(s) {
		c := s[j]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return j + 1
		case c >= 0x20 && c <= 0x3f:
			j++
		default:
			return j
		}
	}
	return j
}

// skipString returns the index past a control string (OSC, DCS, SOS, PM,
// APC): terminated by BEL, ST (ESC \ or C1 U+009C), or cancelled by CAN/SUB.
// Any other ESC ends the string and starts a new sequence. Without a
// terminator the string runs to the end of the input.
func skipString(s string, j int) int {
	for j < len(s) {
		switch s[j] {
		case 0x07, 0x18, 0x1a:
			return j + 1
		case 0x1b:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			return j
		case 0xc2:
			if j+1 < len(s) && s[j+1] == 0x9c {
				return j + 2
			}
		}
		j++
	}
	return j
}
