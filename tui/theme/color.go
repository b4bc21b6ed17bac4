package theme

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
)

// ColorEnabled follows the gh CLI's rule: never with NO_COLOR (any
// non-empty value) or CLICOLOR=0; always with CLICOLOR_FORCE (non-empty,
// not "0"); otherwise only on a terminal. A nil getenv reads nothing.
func ColorEnabled(getenv func(string) string, isTTY bool) bool {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if getenv("NO_COLOR") != "" || getenv("CLICOLOR") == "0" {
		return false
	}
	if f := getenv("CLICOLOR_FORCE"); f != "" && f != "0" {
		return true
	}
	return isTTY
}

// IsTTY reports whether w is a terminal, or GH_FORCE_TTY asks us to treat
// it as one (the gh CLI's convention, used for scripted demos).
func IsTTY(w io.Writer, getenv func(string) string) bool {
	if getenv != nil && getenv("GH_FORCE_TTY") != "" {
		return true
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// NewRenderer returns a lipgloss renderer for w. Without colour the profile
// is pinned to ASCII, under which lipgloss emits no escape code at all, so
// meaning must never rest on colour or weight alone (glyphs and words carry
// it). The background is decided here, without a query of our own: a query
// that no one answers holds the console back for five seconds, and a wrong
// guess only shifts adaptive colours. (Bubble Tea v1 itself still asks once
// when its package initializes, on a terminal; termenv skips that under
// tmux and screen, and a terminal that answers does so in milliseconds.)
func NewRenderer(w io.Writer, color bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(w)
	if !color {
		r.SetColorProfile(termenv.Ascii)
		r.SetHasDarkBackground(true)
		return r
	}
	dark, _ := background(os.Getenv("COLORFGBG"))
	r.SetHasDarkBackground(dark)
	return r
}

// background reads the COLORFGBG convention ("fg;bg", bg an ANSI colour
// index, as rxvt, Konsole and iTerm set it). Without it the background is
// not known (dark is reported, as most terminals are, but Default then
// picks the Neutral palette that reads on both).
func background(colorfgbg string) (dark, known bool) {
	i := strings.LastIndexByte(colorfgbg, ';')
	if i < 0 {
		return true, false
	}
	bg, err := strconv.Atoi(colorfgbg[i+1:])
	if err != nil {
		return true, false
	}
	return bg < 7 || bg == 8, true
}

// darkBackground is background's first result.
func darkBackground(colorfgbg string) bool {
	dark, _ := background(colorfgbg)
	return dark
}
