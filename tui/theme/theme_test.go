package theme

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/muesli/termenv"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestColorEnabled(t *testing.T) {
	cases := []struct {
		name   string
		getenv func(string) string
		tty    bool
		want   bool
	}{
		{"tty", env(), true, true},
		{"not a tty", env(), false, false},
		{"nil env tty", nil, true, true},
		{"NO_COLOR", env("NO_COLOR", "1"), true, false},
		{"NO_COLOR empty is unset", env("NO_COLOR", ""), true, true},
		{"CLICOLOR=0", env("CLICOLOR", "0"), true, false},
		{"CLICOLOR=1 on tty", env("CLICOLOR", "1"), true, true},
		{"CLICOLOR_FORCE off tty", env("CLICOLOR_FORCE", "1"), false, true},
		{"CLICOLOR_FORCE=0", env("CLICOLOR_FORCE", "0"), false, false},
		{"NO_COLOR beats CLICOLOR_FORCE", env("NO_COLOR", "1", "CLICOLOR_FORCE", "1"), true, false},
		{"CLICOLOR=0 beats CLICOLOR_FORCE", env("CLICOLOR", "0", "CLICOLOR_FORCE", "1"), true, false},
	}
	for _, c := range cases {
		if got := ColorEnabled(c.getenv, c.tty); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestIsTTY(t *testing.T) {
	var buf bytes.Buffer
	if IsTTY(&buf, env()) {
		t.Error("a buffer is not a terminal")
	}
	if !IsTTY(&buf, env("GH_FORCE_TTY", "1")) {
		t.Error("GH_FORCE_TTY must force a terminal")
	}
}

func TestNoColorRendersNoEscapes(t *testing.T) {
	var buf bytes.Buffer
	st := New(NewRenderer(&buf, false), Default())
	for name, s := range map[string]string{
		"title": st.Title.Render("x"), "fail": st.Fail.Render("x"), "column": st.Column.Render("x"),
		"help": st.Help.ShortKey.Render("x"),
	} {
		if s != "x" || strings.Contains(s, "\x1b") {
			t.Errorf("%s: %q", name, s)
		}
	}
}

func TestColorRendersEscapes(t *testing.T) {
	var buf bytes.Buffer
	r := NewRenderer(&buf, true)
	// A buffer has no colour profile of its own; force one to prove the
	// styles carry colour when colour is allowed.
	r.SetColorProfile(termenv.ANSI256)
	st := New(r, Default())
	if s := st.Fail.Render("x"); !strings.Contains(s, "\x1b[") {
		t.Errorf("expected an SGR sequence, got %q", s)
	}
}

func TestDarkBackgroundFromCOLORFGBG(t *testing.T) {
	for in, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "7;8": true, "0;default;15": false, "garbage": true, "0;7": false} {
		if got := darkBackground(in); got != want {
			t.Errorf("darkBackground(%q) = %v, want %v", in, got, want)
		}
	}
}

// Without COLORFGBG the background is unknown: the theme must read on a
// light and a dark terminal alike (issue 10 point 10: near-white text on a
// light terminal). Text keeps the terminal's own colour; every other
// colour has a contrast of at least 3:1 against both black and white.
func TestUnknownBackgroundUsesColoursThatReadOnBoth(t *testing.T) {
	t.Setenv("COLORFGBG", "")
	th := Default()
	if _, ok := th.Text.(lipgloss.NoColor); !ok {
		t.Errorf("text colour %v: want the terminal's own foreground", th.Text)
	}
	for name, c := range map[string]lipgloss.TerminalColor{
		"accent": th.Accent, "muted": th.Muted, "border": th.Border, "pass": th.Pass,
		"fail": th.Fail, "pending": th.Pending, "unknown": th.Unknown, "warn": th.Warn,
	} {
		hex, ok := c.(lipgloss.Color)
		if !ok {
			t.Errorf("%s: %T adapts to a background that is not known", name, c)
			continue
		}
		l := luminance(t, string(hex))
		if onWhite, onBlack := 1.05/(l+0.05), (l+0.05)/0.05; onWhite < 3 || onBlack < 3 {
			t.Errorf("%s %s: contrast %.2f on white, %.2f on black; want >= 3 on both", name, hex, onWhite, onBlack)
		}
	}
	t.Setenv("COLORFGBG", "0;15")
	if _, ok := Default().Text.(lipgloss.AdaptiveColor); !ok {
		t.Error("a known background keeps the adaptive palette")
	}
}

// luminance is the WCAG relative luminance of "#RRGGBB".
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		t.Fatalf("colour %q", hex)
	}
	lin := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16&0xff) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}
