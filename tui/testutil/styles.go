package testutil

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/prloop/gh-prloop/tui/theme"
)

// Styles returns the product's styles on a renderer pinned to the ASCII
// profile, and pins lipgloss's default renderer too (bubbles use it for
// padding), so that output is identical on every machine and contains no
// escape code at all.
func Styles() *theme.Styles {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	st := theme.New(theme.NewRenderer(io.Discard, false), theme.Default())
	return &st
}
