// Package theme holds the colours and glyphs of the interface and builds
// from them the one Styles struct every component renders with.
package theme

import (
	"os"

	"github.com/charmbracelet/lipgloss"
)

// Theme is the palette and glyph set. Colours adapt to light and dark
// backgrounds, or read on both when the background is not known; glyphs
// never require a Nerd Font.
type Theme struct {
	Accent  lipgloss.TerminalColor
	Text    lipgloss.TerminalColor
	Muted   lipgloss.TerminalColor
	Border  lipgloss.TerminalColor
	Pass    lipgloss.TerminalColor
	Fail    lipgloss.TerminalColor
	Pending lipgloss.TerminalColor
	Unknown lipgloss.TerminalColor
	Warn    lipgloss.TerminalColor
	Glyphs  Glyphs
}

// Glyphs are the symbols the interface draws. Each status glyph is always
// shown next to a word, so none is the only carrier of meaning.
type Glyphs struct {
	Pass, Fail, Pending, Unknown string
	Focus                        string // marks the focused pane
	Into                         string // base ← head
	Sep                          string // between inline fields
	Rule                         string // one cell of a horizontal rule
	Notice                       string
	Spinner                      []string // frames, shown while Codex is reviewing
}

// UnicodeGlyphs need only a font with the common symbol blocks.
func UnicodeGlyphs() Glyphs {
	return Glyphs{Pass: "✓", Fail: "✗", Pending: "…", Unknown: "?", Focus: "▸", Into: "←", Sep: "·", Rule: "─", Notice: "!",
		Spinner: []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}}
}

// ASCIIGlyphs are for terminals and fonts that cannot be trusted with more.
func ASCIIGlyphs() Glyphs {
	return Glyphs{Pass: "+", Fail: "x", Pending: "~", Unknown: "?", Focus: ">", Into: "<-", Sep: "|", Rule: "-", Notice: "!",
		Spinner: []string{"|", "/", "-", "\\"}}
}

// Default is the product's theme for this terminal: Adaptive when the
// background is known (COLORFGBG), else Neutral. Guessing "dark" would put
// near-white text on a light terminal.
func Default() Theme {
	if _, known := background(os.Getenv("COLORFGBG")); known {
		return Adaptive()
	}
	return Neutral()
}

// Neutral reads on a light and on a dark background alike: text in the
// terminal's own foreground colour, every other colour of middle
// luminance (a contrast of at least 3:1 against both black and white; a
// test checks it).
func Neutral() Theme {
	grey := lipgloss.Color("#808080")
	return Theme{
		Accent:  lipgloss.Color("#8A63D2"),
		Text:    lipgloss.NoColor{},
		Muted:   grey,
		Border:  grey,
		Pass:    lipgloss.Color("#2DA44E"),
		Fail:    lipgloss.Color("#E5534B"),
		Pending: lipgloss.Color("#B7821F"),
		Unknown: grey,
		Warn:    lipgloss.Color("#D0742A"),
		Glyphs:  UnicodeGlyphs(),
	}
}

// Adaptive is the palette for a known background: each colour has a light
// and a dark variant, chosen by the renderer.
func Adaptive() Theme {
	return Theme{
		Accent:  lipgloss.AdaptiveColor{Light: "#5A3FD6", Dark: "#A48CFF"},
		Text:    lipgloss.AdaptiveColor{Light: "#1F1F1F", Dark: "#E6E6E6"},
		Muted:   lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#8A8A8A"},
		Border:  lipgloss.AdaptiveColor{Light: "#C8C8C8", Dark: "#3C3C3C"},
		Pass:    lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#3FB950"},
		Fail:    lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"},
		Pending: lipgloss.AdaptiveColor{Light: "#9A6700", Dark: "#D29922"},
		Unknown: lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#8A8A8A"},
		Warn:    lipgloss.AdaptiveColor{Light: "#BC4C00", Dark: "#DB6D28"},
		Glyphs:  UnicodeGlyphs(),
	}
}
