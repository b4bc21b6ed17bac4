package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Approved content is escaped, never stripped: each hidden character is a
// visible token, and the token is marked so the caller can colour it.
func TestEscapeShowsEveryHiddenCharacter(t *testing.T) {
	cases := []struct{ in, want string }{
		{"pass\U000E0041word", "pass⟨U+E0041⟩word"},
		{"src/\u200bmain.go", "src/⟨U+200B⟩main.go"},
		{"if admin \u202e{ } \u2066x\u2069", "if admin ⟨U+202E⟩{ } ⟨U+2066⟩x⟨U+2069⟩"},
		{"a\x1b[31mred", "a⟨U+001B⟩[31mred"},
		{"c1\u009b2J", "c1⟨U+009B⟩2J"},
		{"bell\a", "bell⟨U+0007⟩"},
		{"cr\r", "cr⟨U+000D⟩"},
		{"nb\u00a0sp", "nb⟨U+00A0⟩sp"},
		{"vs\ufe0f", "vs⟨U+FE0F⟩"},
		{"bom\ufeff", "bom⟨U+FEFF⟩"},
		{"latin1 caf\xe9", "latin1 caf⟨0xE9⟩"},
		{"ls\u2028x", "ls⟨U+2028⟩x"},
		{"plain ascii, {}[]", "plain ascii, {}[]"},
		{"日本語 é", "日本語 é"},
	}
	for _, c := range cases {
		got, hidden := Escape(c.in, EscapeOptions{})
		if got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if hidden != (got != c.in) {
			t.Errorf("Escape(%q) hidden = %v", c.in, hidden)
		}
		if bad := unsafeRune(got); bad >= 0 {
			t.Errorf("Escape(%q) left %U in %q", c.in, bad, got)
		}
	}
}

func TestEscapeSegmentsMarkTokens(t *testing.T) {
	segs := EscapeSegments("a\u200bb", EscapeOptions{})
	if len(segs) != 3 || segs[0] != (Segment{"a", false}) || segs[1] != (Segment{"⟨U+200B⟩", true}) || segs[2] != (Segment{"b", false}) {
		t.Fatalf("segments %#v", segs)
	}
}

func TestEscapeTabAndMarks(t *testing.T) {
	if got, h := Escape("\tx", EscapeOptions{Tab: "    "}); got != "    x" || h {
		t.Errorf("tab as spaces: %q %v", got, h)
	}
	if got, _ := Escape("\tx", EscapeOptions{}); got != "⟨U+0009⟩x" {
		t.Errorf("tab escaped: %q", got)
	}
	zalgo := "e" + strings.Repeat("\u0301", MaxCombining+2)
	got, h := Escape(zalgo, EscapeOptions{})
	if !h || strings.Count(got, "⟨U+0301⟩") != 2 {
		t.Errorf("marks beyond %d must be escaped: %q", MaxCombining, got)
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"pass\U000E0041word", "\x1b]52;c;x\a", "caf\xe9", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, _ := Escape(s, EscapeOptions{Tab: "  "})
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 from %q", s)
		}
		if bad := unsafeRune(got); bad >= 0 {
			t.Fatalf("Escape(%q) left %U", s, bad)
		}
	})
}

// unsafeRune returns the first rune Escape must never leave, or -1.
func unsafeRune(s string) rune {
	for _, r := range s {
		if r != ' ' && escaped(r) || r == utf8.RuneError {
			return r
		}
	}
	return -1
}
