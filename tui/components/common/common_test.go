package common

import "testing"

func TestHelpers(t *testing.T) {
	if got := ShortSHA("0123456789abcdef"); got != "0123456" {
		t.Errorf("ShortSHA = %q", got)
	}
	if got := ShortSHA("\x1b[31mabc"); got != "abc" {
		t.Errorf("ShortSHA of hostile = %q", got)
	}
	if got := Fit("hello world", 5); got != "hell…" {
		t.Errorf("Fit = %q", got)
	}
	// A selector after a space: one cell to Truncate, two to StringWidth.
	if got := Fit("ab  \ufe0fcdef", 5); got != "ab …" {
		t.Errorf("Fit of a selector after a space = %q", got)
	}
	if Fit("x", 0) != "" {
		t.Error("Fit to zero width")
	}
	if got := Pad("漢", 4); got != "漢  " {
		t.Errorf("Pad = %q", got)
	}
	var c Common
	c.SetSize(-3, -1)
	if c.Width != 0 || c.Height != 0 {
		t.Error("negative sizes must clamp to zero")
	}
}
