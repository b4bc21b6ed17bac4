package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-isatty"
)

// terminalWidth is w's width when it is a terminal, else 80 (what gh
// assumes for --template tables written to a pipe).
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(f.Fd()); err == nil && width > 0 {
			return width
		}
	}
	return 80
}

// isTerminal reports whether w is a terminal, honouring GH_FORCE_TTY as gh does.
func isTerminal(w io.Writer) bool {
	if os.Getenv("GH_FORCE_TTY") != "" {
		return true
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// writeJSON prints v as JSON: indented on a terminal, compact for scripts (gh's
// convention), never HTML-escaped, always newline-terminated.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if isTerminal(w) {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
