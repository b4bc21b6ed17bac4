package watch

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// historyLines renders the history newest first (the latest wakeup is what
// a reader looks for), each wakeup with what it cost and each operation
// with its receipt; a failed or halted step in the error style with its
// message. Consecutive wakeups that decided the same thing (a loop waits
// for Codex, or for a hash, for many wakeups) are one line that counts
// them, says since when and adds up their cost, so that the few rows an
// 80x24 screen has show what changed.
func historyLines(st *theme.Styles, h []status.Entry, w int) []string {
	sep := " " + st.Glyphs.Sep + " "
	var out []string
	for i := len(h) - 1; i >= 0; i-- {
		e := h[i]
		at := "--:--:--"
		if !e.Time.IsZero() {
			at = e.Time.UTC().Format("15:04:05")
		}
		n, first := 1, e
		if e.Kind != status.EntryOperation {
			for i > 0 && sameDecision(h[i-1], e) {
				i--
				n++
				first = h[i]
				e.Requests += first.Requests
				e.Points += first.Points
			}
		}
		var s string
		failed := e.Failed
		switch e.Kind {
		case status.EntryOperation:
			mark := st.Glyphs.Pass
			if e.Failed {
				mark = st.Glyphs.Fail
			}
			s = fmt.Sprintf("%s  %s %s", at, mark, sanitize.Line(e.Op, 32))
			if r := sanitize.Line(e.Receipt, w); r != "" {
				s += "  " + r
			}
		default:
			a := sanitize.Line(e.Action, 24)
			if a == "" {
				a = "?"
			}
			s = fmt.Sprintf("%s  wakeup %s", at, a)
			if r := sanitize.Line(e.Reason, 32); r != "" {
				s += " (" + r + ")"
			}
			if n > 1 {
				s += fmt.Sprintf(" ×%d", n)
			}
			cost := sep + fmt.Sprintf("%d %s, %d %s", e.Requests, plural(e.Requests, "request", "requests"), e.Points, plural(e.Points, "point", "points"))
			// "since" only where it leaves the cost whole
			if since := " since " + first.Time.UTC().Format("15:04:05"); n > 1 && !first.Time.IsZero() &&
				ansi.StringWidth(s+since+cost) <= w {
				s += since
			}
			s += cost
			failed = failed || e.Action == "halt"
		}
		if m := sanitize.Line(e.Message, w); m != "" {
			s += " — " + m
		}
		s = common.Fit(s, w)
		if failed {
			s = st.Error.Render(s)
		}
		out = append(out, s)
	}
	return out
}

// sameDecision: two wakeup records that a reader would not tell apart
// but by their time.
func sameDecision(a, b status.Entry) bool {
	return a.Kind != status.EntryOperation && b.Kind != status.EntryOperation &&
		a.Action == b.Action && a.Reason == b.Reason && a.Message == b.Message && a.Failed == b.Failed
}

// operationLines renders the live operation list of an executing plan.
func operationLines(st *theme.Styles, e *status.Execution, frame, w int) []string {
	if e == nil {
		return nil
	}
	g := st.Glyphs
	var out []string
	for i, op := range e.Operations {
		var mark, tail string
		style := st.Text
		switch op.State {
		case status.OpDone:
			mark, tail = st.Pass.Render(g.Pass), sanitize.Line(op.Receipt, w)
		case status.OpRunning:
			mark = st.Pending.Render(g.Spinner[frame%len(g.Spinner)])
		case status.OpFailed:
			mark, tail, style = st.Fail.Render(g.Fail), sanitize.Line(op.Message, w), st.Error
		default:
			mark, style = st.Muted.Render("·"), st.Muted
		}
		line := fmt.Sprintf("  %2d %s %s", i+1, mark, style.Render(sanitize.Line(op.Name, 40)))
		if tail != "" {
			line += "  " + style.Render(tail)
		}
		out = append(out, common.Fit(line, w))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// section renders a titled block of at most h lines: the title, then as
// many lines as fit, the title saying how many were left out.
func section(st *theme.Styles, title string, lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	head := "  " + title
	if n := len(lines); n > h-1 {
		head += fmt.Sprintf(" (latest %d of %d)", max(h-1, 0), n)
	}
	out := []string{st.Section.Render(common.Fit(head, w))}
	for i := 0; i < len(lines) && i < h-1; i++ {
		out = append(out, "  "+lines[i])
	}
	if len(lines) == 0 && h > 1 {
		out = append(out, st.Muted.Render(common.Fit("    nothing yet", w)))
	}
	for i := range out {
		out[i] = common.Fit(out[i], w)
	}
	return out
}
