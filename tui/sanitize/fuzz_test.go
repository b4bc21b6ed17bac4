package sanitize

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func FuzzText(f *testing.F) {
	for _, seed := range []string{
		"", "plain", testutil.Hostile("h"), "\x1b]8;;x\x07y", "\x1b[", "\x1b]", "\u009b",
		"a\r\nb\rc\t", "\xff\xfe\xc3", "Z" + strings.Repeat("\u0301", 20), "\u2764\ufe0f",
		"\x1bP\x1b\\", "\x1b(", "\x1b\x1b\x1b", "漢\u200d字",
	} {
		f.Add(seed, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		got := Text(s)
		if why := testutil.Unsafe(got, true, false); why != "" {
			t.Fatalf("Text(%q) = %q: %s", s, got, why)
		}
		if again := Text(got); again != got {
			t.Fatalf("Text not idempotent: %q -> %q -> %q", s, got, again)
		}
		max %= 300
		line := Line(s, max)
		if why := testutil.Unsafe(line, false, false); why != "" {
			t.Fatalf("Line(%q, %d) = %q: %s", s, max, line, why)
		}
		limit := max
		if limit < 0 {
			limit = 0
		}
		if w := ansi.StringWidth(line); w > limit {
			t.Fatalf("Line(%q, %d) is %d cells wide", s, max, w)
		}
	})
}
