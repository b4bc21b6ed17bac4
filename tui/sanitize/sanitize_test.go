package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestTextEscapeSequences(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"csi sgr", "a\x1b[31mred\x1b[0m b", "ared b"},
		{"csi cursor up and erase", "ok\x1b[2A\x1b[2Kfake", "okfake"},
		{"csi private mode", "x\x1b[?1049hy", "xy"},
		{"csi aborted by newline keeps text", "a\x1b[12\nb", "a\nb"},
		{"csi unterminated at end", "a\x1b[12;", "a"},
		{"osc 8 hyperlink BEL", "\x1b]8;;https://evil.example\alink\x1b]8;;\a", "link"},
		{"osc 8 hyperlink ST", "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\!", "link!"},
		{"osc 52 clipboard", "before\x1b]52;c;cm0gLXJmIH4=\aafter", "beforeafter"},
		{"osc 0 title", "\x1b]0;pwned\x07title", "title"},
		{"osc unterminated swallows rest", "keep\x1b]52;c;cm0gLXJmIH4=and more", "keep"},
		{"osc cancelled by CAN", "a\x1b]0;x\x18b", "ab"},
		{"osc ended by new escape", "a\x1b]0;x\x1b[1mb", "ab"},
		{"osc C1 ST", "a\x1b]0;x\u009cb", "ab"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"sos", "a\x1bXhidden\x1b\\b", "ab"},
		{"pm", "a\x1b^hidden\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"nF charset", "a\x1b(Bb", "ab"},
		{"fs reset", "a\x1bcb", "ab"},
		{"fp save cursor", "a\x1b7b", "ab"},
		{"lone esc at end", "abc\x1b", "abc"},
		{"lone esc before newline", "a\x1b\nb", "a\nb"},
		{"esc space is an nF sequence", "a\x1b Fb", "ab"},
		{"lone esc before non-ascii", "a\x1bé", "aé"},
		{"double esc", "a\x1b\x1b[1mb", "ab"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d0;title\u009cb", "ab"},
		{"c1 dcs", "a\u0090payload\u009cb", "ab"},
		{"c1 apc", "a\u009fpayload\ab", "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextControls(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"newline kept", "a\nb", "a\nb"},
		{"tab to spaces", "a\tb", "a    b"},
		{"crlf", "a\r\nb", "a\nb"},
		{"lone cr cannot overwrite", "safe\rEVIL", "safe\nEVIL"},
		{"bel bs nul", "a\a\b\x00b", "ab"},
		{"form feed vertical tab", "a\f\vb", "ab"},
		{"del", "a\x7fb", "ab"},
		{"every c1", "a" + c1Range() + "b", "ab"},
		{"line separator", "a\u2028b\u2029c", "a\nb\nc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func c1Range() string {
	var b strings.Builder
	// Introducers (U+0090, U+0098, U+009B, U+009D–U+009F) start sequences
	// and are tested above; here only the ones that are removed alone.
	for r := rune(0x80); r <= 0x9f; r++ {
		switch r {
		case 0x90, 0x98, 0x9b, 0x9d, 0x9e, 0x9f:
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestTextBidiAndInvisible(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"rlo trojan source", "access\u202e\u2066// admin\u2069\u2066", "access// admin"},
		{"embeddings and pdf", "\u202aa\u202bb\u202cc\u202dd", "abcd"},
		{"isolates", "\u2066a\u2067b\u2068c\u2069", "abc"},
		{"marks", "a\u200eb\u200fc\u061cd", "abcd"},
		{"zero width", "a\u200bb\u200cc\u200dd", "abcd"},
		{"word joiner and invisible operators", "a\u2060b\u2061c\u2062d\u2063e\u2064f", "abcdef"},
		{"bom", "\ufeffhello", "hello"},
		{"soft hyphen", "pass\u00adword", "password"},
		{"tag characters smuggle text", "hi\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065", "hi"},
		{"variation selectors smuggle bytes", "x\ufe00\ufe01\U000E0100\U000E01EFy", "xy"},
		{"emoji presentation selectors kept", "\u2764\ufe0f \u2764\ufe0e", "\u2764\ufe0f \u2764\ufe0e"},
		{"hangul fillers", "a\u3164b\u115fc\uffa0d", "abcd"},
		{"combining grapheme joiner", "a\u034fb", "ab"},
		{"mongolian selectors", "a\u180bb\u180ec", "abc"},
		{"zwj family becomes parts", "\U0001F468\u200d\U0001F469", "\U0001F468\U0001F469"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextKeepsOrdinaryUnicode(t *testing.T) {
	in := "café 漢字 Ελληνικά עברית العربية 🎉 e\u0301 👍🏽 🇫🇷"
	if got := Text(in); got != in {
		t.Errorf("Text changed ordinary text: %q -> %q", in, got)
	}
}

func TestTextInvalidUTF8(t *testing.T) {
	got := Text("a\xffb\xc3(c\xe2\x82")
	want := "a\uFFFDb\uFFFD(c\uFFFD\uFFFD"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !utf8.ValidString(got) {
		t.Error("result is not valid UTF-8")
	}
	// A raw 8-bit CSI byte is invalid UTF-8, never an introducer.
	if got := Text("a\x9b31mb"); got != "a\uFFFD31mb" {
		t.Errorf("raw 0x9b: got %q", got)
	}
}

func TestTextCombiningCap(t *testing.T) {
	zalgo := "Z" + strings.Repeat("\u0301", 50) + "a"
	got := Text(zalgo)
	want := "Z" + strings.Repeat("\u0301", MaxCombining) + "a"
	if got != want {
		t.Errorf("got %d runes, want %d", utf8.RuneCountInString(got), utf8.RuneCountInString(want))
	}
	// A removed character between marks must not restart the count.
	split := "Z" + strings.Repeat("\u0301", MaxCombining) + "\u200b" + strings.Repeat("\u0301", MaxCombining)
	if got := Text(split); got != "Z"+strings.Repeat("\u0301", MaxCombining) {
		t.Errorf("split marks: got %q", got)
	}
	// Vietnamese needs two marks on one letter and keeps them.
	if got := Text("ệ"); got != "ệ" {
		t.Errorf("got %q", got)
	}
}

func TestLine(t *testing.T) {
	cases := []struct {
		name, in string
		max      int
		want     string
	}{
		{"fits", "hello", 10, "hello"},
		{"exact", "hello", 5, "hello"},
		{"truncated", "hello world", 8, "hello w…"},
		{"newlines become one space", "a\n\n\nb\r\nc", 20, "a b c"},
		{"trimmed", "  \n a \n ", 20, "a"},
		{"zero budget", "hello", 0, ""},
		{"negative budget", "hello", -3, ""},
		{"one cell", "hello", 1, "…"},
		{"wide chars count two", "漢字漢字", 5, "漢字…"},
		{"wide char does not fit one cell", "漢", 1, "…"},
		{"sanitized before measuring", "\x1b[31m" + strings.Repeat("x", 3) + "\x1b[0m", 3, "xxx"},
		{"tab counts as spaces", "a\tb", 20, "a    b"},
		// Truncate counts " \ufe0f" as one cell, StringWidth as two: the
		// line must fit as the layout measures it (found by FuzzText).
		{"selector after space measured as layouts do", "ab\t\ufe0fcdefgh", 7, "ab   …"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in, c.max); got != c.want {
				t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
			}
		})
	}
}

func TestLineHugeInput(t *testing.T) {
	huge := strings.Repeat("A", 10000) + "\n" + strings.Repeat("漢", 5000)
	// One Hangul syllable block may carry any number of vowel jamo: a
	// single narrow cluster of many kilobytes.
	jamo := "\u1100" + strings.Repeat("\u1161", 10000)
	if got := Line(jamo, 80); !strings.HasSuffix(got, Ellipsis) || ansi.StringWidth(got) > 80 {
		t.Errorf("jamo run: width %d, suffix ellipsis %v", ansi.StringWidth(got), strings.HasSuffix(got, Ellipsis))
	}
	for _, max := range []int{1, 2, 7, 80, 119, 120} {
		got := Line(huge, max)
		if w := ansi.StringWidth(got); w > max {
			t.Errorf("max %d: width %d", max, w)
		}
		if strings.ContainsRune(got, '\n') {
			t.Errorf("max %d: contains newline", max)
		}
		if !strings.HasSuffix(got, Ellipsis) {
			t.Errorf("max %d: truncation not marked: %q", max, got)
		}
	}
}
