package sanitize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escaping is the other way to make text safe, for content a human
// approves: where Text strips, Escape shows. In a diff or a path that is
// about to be approved, a removed character is a lie of omission
// (`pass\U000E0041word` reads as `password`, a path with U+200B looks like
// the real one), so every character Text would remove or rewrite is instead
// written as a visible token, `⟨U+200B⟩` (or `⟨0xE9⟩` for a byte that is not
// UTF-8), which the caller draws in a warning colour.
//
// Escaped: C0 controls (tab included: a tab is shown as its own token so
// that indentation by tab and by spaces differ visibly; see EscapeTab),
// DEL, C1 controls, every format character (Cf: bidi, zero-width, tags,
// BOM), variation selectors (all of them: in approved content even a
// presentation selector is a hidden byte), invisible fillers, line and
// paragraph separators, every space other than U+0020, combining marks
// beyond MaxCombining, and invalid UTF-8. An escape sequence is not removed
// whole: its ESC (or C1 introducer) is escaped and the rest is printable
// text, shown as it is, so nothing of it is hidden and nothing of it acts.

// Segment is a run of text that is either shown as is (Escaped false) or is
// one escape token.
type Segment struct {
	Text    string
	Escaped bool
}

// EscapeOptions choose what is shown literally.
type EscapeOptions struct {
	// Tab, when not empty, replaces each tab (not escaped); otherwise a tab
	// is escaped like any other control.
	Tab string
}

// EscapeSegments splits s into plain runs and escape tokens. Joined, the
// segments are safe to write to a terminal and show every byte of s.
func EscapeSegments(s string, o EscapeOptions) []Segment {
	var out []Segment
	var plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			out = append(out, Segment{Text: plain.String()})
			plain.Reset()
		}
	}
	token := func(t string) {
		flush()
		out = append(out, Segment{Text: t, Escaped: true})
	}
	marks := 0
	for i := 0; i < len(s); {
		if c := s[i]; c > 0x20 && c < 0x7f || c == ' ' {
			plain.WriteByte(c)
			marks = 0
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			token(fmt.Sprintf("⟨0x%02X⟩", s[i]))
			marks = 0
			i++
			continue
		}
		i += size
		switch {
		case r == '\t' && o.Tab != "":
			plain.WriteString(o.Tab)
			marks = 0
		case escaped(r):
			token(fmt.Sprintf("⟨U+%04X⟩", r))
			// As in Text, a hidden character does not end a run of marks.
		case unicode.In(r, unicode.Mn, unicode.Me):
			marks++
			if marks > MaxCombining {
				token(fmt.Sprintf("⟨U+%04X⟩", r))
				continue
			}
			plain.WriteRune(r)
		default:
			plain.WriteRune(r)
			marks = 0
		}
	}
	flush()
	return out
}

// Escape is EscapeSegments joined: s with every hidden or controlling
// character written as a visible token, and whether there was any.
func Escape(s string, o EscapeOptions) (string, bool) {
	var b strings.Builder
	hidden := false
	for _, seg := range EscapeSegments(s, o) {
		b.WriteString(seg.Text)
		hidden = hidden || seg.Escaped
	}
	return b.String(), hidden
}

// HasHidden reports whether Escape would write any token for s.
func HasHidden(s string, o EscapeOptions) bool {
	_, h := Escape(s, o)
	return h
}

// escaped reports whether r is shown as a token: everything dropped would
// remove, the separators Text turns into line breaks, every variation
// selector, and every space that is not U+0020 (it looks like one and is
// not).
func escaped(r rune) bool {
	switch {
	case dropped(r):
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == utf8.RuneError: // a literal U+FFFD would pass for a bad byte
		return true
	case r >= 0xfe00 && r <= 0xfe0f:
		return true
	case r != ' ' && unicode.Is(unicode.Zs, r):
		return true
	}
	return false
}
