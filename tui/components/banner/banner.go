// Package banner renders the classification of the pull request in one
// line that can be read at a glance ("FINDINGS — 2 actionable threads"),
// the evaluator's action and reason, Codex's live progress with a spinner,
// and any Codex notices.
package banner

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// MaxNotices is how many notices get a line of their own; the rest are
// counted, so that notices cannot take the screen.
const MaxNotices = 2

// Data is what the banner shows. Classification is one of the protocol's
// report classifications; anything else is shown as it is, sanitized.
type Data struct {
	Loading         bool // nothing observed yet
	Classification  string
	Actionable      int
	RequestDeadline string
	Reviewing       bool
	SummaryState    string
	Action          string
	Reason          string
	Message         string
	Notices         []string
}

// KeyMap is empty: the banner takes no keys.
type KeyMap = common.NoKeys

// Model is the banner component.
type Model struct {
	common.Common
	Keys     KeyMap
	data     Data
	spin     spinner.Model
	spinning bool
}

// New returns an empty banner.
func New(st *theme.Styles) Model {
	sp := spinner.New(spinner.WithSpinner(spinner.Spinner{Frames: st.Glyphs.Spinner, FPS: spinnerFPS}))
	return Model{Common: common.Common{Styles: st}, spin: sp}
}

// SetData replaces what is shown and returns the command that starts the
// spinner when Codex has just started reviewing.
func (m *Model) SetData(d Data) tea.Cmd {
	m.data = d
	if d.Reviewing && !m.spinning {
		m.spinning = true
		return m.spin.Tick
	}
	return nil
}

// Update advances the spinner. Its ticks stop (are not rescheduled) once
// Codex is no longer reviewing, so an idle console sends no messages.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(spinner.TickMsg); !ok {
		return nil
	}
	if !m.data.Reviewing {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spin, cmd = m.spin.Update(msg)
	return cmd
}

// Headline is the first line, without styling: the classification in
// capitals and what it means here.
func Headline(d Data) string {
	if d.Loading {
		return "LOADING — fetching the pull request…"
	}
	switch d.Classification {
	case "no-request":
		return "NO REQUEST — no Codex review has been requested"
	case "awaiting-response":
		// The request time is in the responses pane; the deadline is what
		// the reader acts on.
		if d.RequestDeadline != "" {
			return "AWAITING RESPONSE — Codex must answer by " + sanitize.Line(d.RequestDeadline, 32)
		}
		return "AWAITING RESPONSE — waiting for Codex"
	case "findings":
		return fmt.Sprintf("FINDINGS — %d actionable %s", d.Actionable, plural(d.Actionable, "thread", "threads"))
	case "zero-findings":
		return "ZERO FINDINGS — Codex found no major issues on this head"
	case "ambiguous":
		return "AMBIGUOUS — a Codex response is neither findings nor zero findings"
	case "":
		return "NOT CLASSIFIED"
	}
	return strings.ToUpper(sanitize.Line(d.Classification, 40))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// lines returns the banner's lines, each fitted to the width. The report's
// plain mode uses Headline too, so both outputs say the same thing.
func (m Model) lines() []string {
	d, st, g, w := m.data, m.Styles, m.Styles.Glyphs, m.Width
	out := []string{st.Banner.Render(common.Fit(Headline(d), w))}
	if d.Reviewing {
		s := "Codex is reviewing…"
		if ss := sanitize.Line(d.SummaryState, 24); ss != "" {
			s += " (summary: " + ss + ")"
		}
		out = append(out, st.Pending.Render(common.Fit(m.spin.View()+" "+s, w)))
	}
	if d.Action != "" || d.Reason != "" || d.Message != "" {
		var parts []string
		if a := sanitize.Line(d.Action, 32); a != "" {
			parts = append(parts, "action "+a)
		}
		if r := sanitize.Line(d.Reason, 40); r != "" {
			parts = append(parts, "reason "+r)
		}
		s := strings.Join(parts, " "+g.Sep+" ")
		if msg := sanitize.Line(d.Message, w); msg != "" {
			if s != "" {
				s += " — "
			}
			s += msg
		}
		out = append(out, st.Muted.Render(common.Fit(s, w)))
	}
	for i, n := range d.Notices {
		if i == MaxNotices-1 && len(d.Notices) > MaxNotices {
			out = append(out, st.Warn.Render(common.Fit(fmt.Sprintf("%s %d more notices", g.Notice, len(d.Notices)-i), w)))
			break
		}
		out = append(out, st.Warn.Render(common.Fit(g.Notice+" notice: "+sanitize.Line(n, w), w)))
	}
	return out
}

// Height is the number of lines View will render.
func (m Model) Height() int { return len(m.lines()) }

// View renders the banner.
func (m Model) View() string {
	if m.Width == 0 {
		return ""
	}
	return strings.Join(m.lines(), "\n")
}
