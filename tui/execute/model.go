// Package execute is the live operation list of an executing plan: each
// operation pending, running (spinner and elapsed time), done (its result:
// SHA, PR URL, comment id) or failed (the reason), the tail of validation
// output, and at the end what happens next. It only renders the events the
// executor (loop/initial) emits; Ctrl+C asks the executor to stop between
// operations and says how to resume.
package execute

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// tailLines is how much validation output stays on screen.
const tailLines = 8

type state int

const (
	pending state = iota
	running
	done
	failed
)

type row struct {
	op      string
	state   state
	started time.Time
	took    time.Duration
	result  string
}

// KeyMap is the screen's bindings.
type KeyMap struct{ Stop key.Binding }

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Stop} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// EventMsg carries one executor event into the program.
type EventMsg initial.Event

// DoneMsg ends the execution; Err is nil on success.
type DoneMsg struct{ Err error }

// Model is the live list.
type Model struct {
	rows     []row
	tail     []string
	note     string // the revalidation line
	result   *initial.Result
	err      error
	finished bool
	stopping bool
	runID    string

	stop   func() // asks the executor to stop between operations
	now    func() time.Time
	spin   spinner.Model
	keys   KeyMap
	help   help.Model
	st     *theme.Styles
	width  int
	height int
}

// New returns the list for ops (the manifest's operations, in order).
func New(ops []string, runID string, stop func(), now func() time.Time, st *theme.Styles) *Model {
	m := &Model{runID: runID, stop: stop, now: now, st: st, help: help.New(),
		keys: KeyMap{Stop: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "stop after this operation"))}}
	for _, op := range ops {
		m.rows = append(m.rows, row{op: op})
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.help.Styles = st.Help
	return m
}

// SetSize records the terminal size.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Init starts the spinner.
func (m *Model) Init() tea.Cmd { return m.spin.Tick }

// Err is how the execution ended (nil: done).
func (m *Model) Err() error { return m.err }

// Update applies one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
	case tea.KeyMsg:
		if key.Matches(msg, m.keys.Stop) && !m.finished && !m.stopping {
			m.stopping = true
			if m.stop != nil {
				m.stop()
			}
		}
	case EventMsg:
		m.apply(initial.Event(msg))
	case DoneMsg:
		m.err, m.finished = msg.Err, true
		return m, tea.Quit
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	}
	return m, nil
}

// apply records an event. Everything from it is sanitized here, before
// any styling, because it can quote GitHub or a validation command.
func (m *Model) apply(e initial.Event) {
	at := func() *row {
		if e.Index >= 0 && e.Index < len(m.rows) && m.rows[e.Index].op == e.Op {
			return &m.rows[e.Index]
		}
		return nil
	}
	switch e.Event {
	case initial.EventRevalidated:
		m.note = sanitize.Text(e.Detail)
	case initial.EventStarted:
		if r := at(); r != nil {
			r.state, r.started = running, m.now()
		}
		m.tail = nil
	case initial.EventOutput:
		m.tail = append(m.tail, sanitize.Text(e.Detail))
		if len(m.tail) > tailLines {
			m.tail = m.tail[len(m.tail)-tailLines:]
		}
	case initial.EventFinished:
		if r := at(); r != nil {
			if !r.started.IsZero() {
				r.took = m.now().Sub(r.started)
			}
			r.state, r.result = done, sanitize.Text(summary(e))
		}
	case initial.EventFailed:
		if r := at(); r != nil {
			r.state, r.result = failed, sanitize.Text(e.Detail)
		}
	case initial.EventResult:
		m.result = e.Result
	}
}

// summary is the one result a human looks for in a receipt.
func summary(e initial.Event) string {
	r := e.Receipt
	var s string
	for _, k := range []string{"pr_url", "commit_sha", "remote_head_sha", "comment_id", "automation_key", "base_sha"} {
		if v, ok := r[k]; ok {
			if strings.HasSuffix(k, "_sha") && len(v) > 12 {
				v = v[:12]
			}
			s = strings.TrimSuffix(k, "_sha") + " " + v
			break
		}
	}
	if e.Reconciled {
		s += " (found, not repeated)"
	}
	return s
}

// View draws the list.
func (m *Model) View() string {
	st := m.st
	var b strings.Builder
	b.WriteString(st.Title.Render("Executing the approved plan") + "\n")
	if m.note != "" {
		b.WriteString(st.Muted.Render("✓ "+clip(m.note, m.width-2)) + "\n")
	}
	b.WriteString("\n")
	for i, r := range m.rows {
		var mark, line string
		switch r.state {
		case pending:
			mark, line = st.Muted.Render("·"), st.Muted.Render(r.op)
		case running:
			el := m.now().Sub(r.started).Truncate(time.Second)
			mark, line = m.spin.View(), st.Text.Render(fmt.Sprintf("%s  %s", r.op, el))
		case done:
			mark, line = st.Pass.Render("✓"), st.Text.Render(r.op)+"  "+st.Muted.Render(r.result)
		case failed:
			mark, line = st.Fail.Render("✗"), st.Text.Render(r.op)+"  "+st.Error.Render(r.result)
		}
		fmt.Fprintf(&b, "%2d %s %s\n", i+1, mark, line)
	}
	if len(m.tail) > 0 {
		b.WriteString("\n" + st.Section.Render("validation output") + "\n")
		for _, l := range m.tail {
			b.WriteString(st.Muted.Render("  │ "+clip(l, m.width-4)) + "\n")
		}
	}
	b.WriteString("\n")
	switch {
	case m.result != nil:
		b.WriteString(st.Pass.Render("Done.") + " " + st.Text.Render(sanitize.Text(m.result.PRURL)) + "\n")
		b.WriteString(st.Muted.Render(sanitize.Text(fmt.Sprintf("Automation %s is %s (%s); next wakeup about %s.",
			m.result.AutomationKey, m.result.Status, policy.HeartbeatRRule, m.result.NextWakeup))) + "\n")
	case m.stopping:
		b.WriteString(st.Warn.Render("Stopping after the current operation; resume with `gh-prloop apply "+m.runID+"`.") + "\n")
	default:
		b.WriteString(m.help.View(m.keys) + "\n")
	}
	return b.String()
}

func clip(s string, n int) string {
	if n <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
