package testutil

import "strings"

// Hostile is remote text built to attack a terminal: every escape and
// invisible-character class sanitize must remove, plus a line long enough to
// wreck a layout that trusts its input. Each call returns a fresh string
// tagged with label so that a test can find where it was rendered.
func Hostile(label string) string {
	return label +
		"\x1b[2J\x1b[H\x1b[31m" + // clear screen, home, red
		"\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" + // OSC 8 hyperlink
		"\x1b]52;c;cm0gLXJmIH4=\a" + // OSC 52 clipboard write
		"\x1bP+q544e\x1b\\" + // DCS
		"\x1b_Gf=100\x1b\\" + // APC
		"\u009b6n\u009d0;title\u009c" + // C1 CSI and OSC
		"\u0085\u008d" + // NEL, RI
		"\u202eevil\u202c\u2066iso\u2069\u200f" + // bidi
		"\u200bzw\u200d\ufeff\u00ad\U000E0041" + // invisible
		"\r" + "tail\x1b"
}

// Long returns a line of n cells that no layout should let through whole.
func Long(n int) string {
	return strings.Repeat("W", n)
}
