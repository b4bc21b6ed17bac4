// Package testutil holds helpers shared by the tests of the tui packages:
// the terminal-safety check, hostile sample text, and a pinned colour
// profile so that rendered output is byte-for-byte stable.
package testutil

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Unsafe returns a description of the first thing in s that must never reach
// a terminal from remote text, or "" when s is clean. allowNewline and
// allowESC exist because a rendered screen legitimately contains newlines,
// and a coloured screen contains the renderer's own escape codes.
func Unsafe(s string, allowNewline, allowESC bool) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Sprintf("invalid UTF-8 byte 0x%02x at %d", s[i], i)
		}
		switch {
		case r == 0x1b:
			if !allowESC {
				return fmt.Sprintf("ESC at %d", i)
			}
		case r == '\n':
			if !allowNewline {
				return fmt.Sprintf("newline at %d", i)
			}
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("C0 control %U at %d", r, i)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 control %U at %d", r, i)
		case IsBidi(r):
			return fmt.Sprintf("bidi control %U at %d", r, i)
		case unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("invisible format character %U at %d", r, i)
		}
		i += size
	}
	return ""
}

// IsBidi reports whether r is a bidirectional embedding, override, isolate
// or mark.
func IsBidi(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return r == 0x200e || r == 0x200f || r == 0x061c
}
