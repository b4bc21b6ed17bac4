package watch

import (
	"io"
	"strings"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Notification is what the console raises when a loop starts needing a
// person: a plan awaits approval, or the loop halted.
type Notification struct {
	Title string // "gh-prloop: approval needed" / "gh-prloop: halted"
	Body  string // which loop, and why
}

// Notifier returns the default notifier: a terminal bell, and an OSC 9
// desktop notification where the terminal is known to show one (iTerm2,
// WezTerm, Ghostty, Windows Terminal, ConEmu); elsewhere OSC 9 is
// skipped rather than risk a terminal that prints it. The text is
// sanitized and cut first: it quotes GitHub, and it lands inside an escape
// sequence, where a stray BEL or ESC would end it early and run the rest.
func Notifier(w io.Writer, getenv func(string) string) func(Notification) {
	osc9 := SupportsOSC9(getenv)
	return func(n Notification) {
		_, _ = io.WriteString(w, Sequence(n, osc9))
	}
}

// Sequence is the bytes the default notifier writes.
func Sequence(n Notification, osc9 bool) string {
	s := "\a"
	if osc9 {
		msg := sanitize.Line(strings.TrimSpace(n.Title+": "+n.Body), 200)
		s += "\x1b]9;" + msg + "\x07"
	}
	return s
}

// SupportsOSC9 reports whether the terminal is one that shows OSC 9 as a
// notification.
func SupportsOSC9(getenv func(string) string) bool {
	if getenv == nil {
		return false
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return true
	}
	return getenv("WT_SESSION") != "" || getenv("ConEmuANSI") == "ON"
}
