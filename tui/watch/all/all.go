// Package all is `gh-prloop watch --all`: every loop of the registry in one
// table (repository#PR, round, status, next action, deadline), gh-dash
// style: a row cursor, enter drills into one loop's console, `/` filters.
package all

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/footer"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
	"github.com/prloop/gh-prloop/tui/watch"
)

// Config is what the table needs besides its styles.
type Config struct {
	Context context.Context
	// List reads every loop of the registry from the state directory; it
	// makes no GitHub request.
	List func(ctx context.Context) ([]status.Loop, error)
	// Open returns the console of one loop (enter); it ends with esc.
	Open func(l status.Loop) (watch.Screen, error)
	Now  func() time.Time
}

// KeyMap is the table's bindings.
type KeyMap struct {
	keys.Global
	Up, Down, Open, Filter, Clear, Back, Refresh key.Binding
}

// NewKeyMap returns the bindings.
func NewKeyMap() KeyMap {
	return KeyMap{
		Global:  keys.NewGlobal(),
		Up:      key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open loop")),
		Filter:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Clear:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to all loops")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
}

func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.Refresh, k.Down, k.Help, k.Quit}
}

func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.Filter, k.Clear, k.Refresh}, {k.Help, k.Quit}}
}

// filterHelp is the bar while the filter is typed: q types a q.
type filterHelp struct{ k KeyMap }

func (h filterHelp) ShortHelp() []key.Binding {
	done := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply"))
	return []key.Binding{done, h.k.Clear, h.k.Help, key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))}
}
func (h filterHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

type listedMsg struct {
	loops []status.Loop
	err   error
}

type tickMsg struct{ gen int }

// refreshEvery is how often the table rereads the state directory (local,
// no request).
const refreshEvery = 5 * time.Second

// Model is the table.
type Model struct {
	cfg  Config
	st   *theme.Styles
	keys KeyMap
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

	loops     []status.Loop
	shown     []int // indexes into loops after the filter
	cursor    int
	top       int
	filtering bool
	filter    textinput.Model
	errText   string
	gen       int
	child     watch.Screen
	footer    footer.Model
	width     int
	height    int
}

// New returns the table. Config.List must not be nil.
func New(cfg Config, st *theme.Styles) *Model {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ti := textinput.New()
	ti.Prompt = "/"
	ti.CharLimit = 200
	return &Model{cfg: cfg, st: st, keys: NewKeyMap(), tick: tea.Tick, filter: ti, footer: footer.New(st)}
}

// CapturesKeys reports whether typed letters belong to a field (the
// filter, or a drilled-in console's own input), so the root does not quit
// on q.
func (m *Model) CapturesKeys() bool {
	if m.filtering {
		return true
	}
	if c, ok := m.child.(interface{ CapturesKeys() bool }); ok {
		return c.CapturesKeys()
	}
	return false
}

// Init lists the loops.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.list(), m.clock()) }

func (m *Model) list() tea.Cmd {
	ctx, list := m.cfg.Context, m.cfg.List
	return func() tea.Msg {
		ls, err := list(ctx)
		return listedMsg{ls, err}
	}
}

func (m *Model) clock() tea.Cmd {
	m.gen++
	gen := m.gen
	return m.tick(refreshEvery, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case listedMsg:
		if msg.err != nil {
			m.errText = "listing the loops failed: " + msg.err.Error()
		} else {
			m.errText = ""
			m.setLoops(msg.loops)
		}
		return m, nil
	case tickMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		var cmd tea.Cmd
		if m.child == nil {
			cmd = m.list()
		}
		return m, tea.Batch(cmd, m.clock())
	case tea.KeyMsg:
		if m.child != nil {
			if key.Matches(msg, m.keys.Back) && !m.CapturesKeys() && !m.childBusy() {
				m.child = nil
				return m, m.list()
			}
			return m, m.routeChild(msg)
		}
		return m, m.key(msg)
	}
	if m.child != nil {
		return m, m.routeChild(msg)
	}
	return m, nil
}

// childBusy: the open console runs a wakeup (which may be asking the
// human to edit or to confirm a diff): it is not left until that ends, so
// its questions and progress keep reaching it; esc is then its own key.
func (m *Model) childBusy() bool {
	c, ok := m.child.(interface{ Busy() bool })
	return ok && c.Busy()
}

func (m *Model) routeChild(msg tea.Msg) tea.Cmd {
	next, cmd := m.child.Update(msg)
	m.child = next.(watch.Screen)
	return cmd
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	if m.filtering {
		switch k.Type {
		case tea.KeyEnter:
			m.filtering = false
			m.filter.Blur()
		case tea.KeyEsc:
			m.filtering = false
			m.filter.Blur()
			m.filter.SetValue("")
			m.apply()
		default:
			var cmd tea.Cmd
			m.filter, cmd = m.filter.Update(k)
			m.apply()
			return cmd
		}
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Help):
		m.footer.ShowAll(!m.footer.ShowingAll())
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
		return m.filter.Focus()
	case key.Matches(k, m.keys.Clear):
		m.filter.SetValue("")
		m.apply()
	case key.Matches(k, m.keys.Refresh):
		return m.list()
	case key.Matches(k, m.keys.Up):
		m.move(-1)
	case key.Matches(k, m.keys.Down):
		m.move(1)
	case key.Matches(k, m.keys.Open):
		if l, ok := m.Selected(); ok && m.cfg.Open != nil {
			scr, err := m.cfg.Open(l)
			if err != nil {
				m.errText = "opening the loop failed: " + err.Error()
				return nil
			}
			m.child = scr
			m.child.SetSize(m.width, m.height)
			return m.child.Init()
		}
	}
	return nil
}

// Selected is the loop under the cursor.
func (m *Model) Selected() (status.Loop, bool) {
	if m.cursor < 0 || m.cursor >= len(m.shown) {
		return status.Loop{}, false
	}
	return m.loops[m.shown[m.cursor]], true
}

func (m *Model) setLoops(ls []status.Loop) {
	var keep string
	if l, ok := m.Selected(); ok {
		keep = l.Key
	}
	m.loops = ls
	m.apply()
	for i, j := range m.shown {
		if keep != "" && m.loops[j].Key == keep {
			m.cursor = i
		}
	}
	m.clamp()
}

// apply recomputes the filtered rows. The filter matches, case-folded,
// the row as shown (repository#PR, status, next action) and the key, all
// sanitized, so what matches is what the reader sees.
func (m *Model) apply() {
	q := strings.ToLower(strings.TrimSpace(m.filter.Value()))
	m.shown = m.shown[:0]
	for i, l := range m.loops {
		if q == "" || strings.Contains(strings.ToLower(searchText(l)), q) {
			m.shown = append(m.shown, i)
		}
	}
	m.clamp()
}

func searchText(l status.Loop) string {
	return sanitize.Text(fmt.Sprintf("%s#%d %s %s %s %s", l.Repository, l.Number, l.Title, l.StatusWord(), l.NextShort(), l.Key))
}

func (m *Model) move(d int) {
	m.cursor += d
	m.clamp()
}

func (m *Model) body() int { return max(m.height-m.footer.Height(m.helpMap())-3, 0) }

func (m *Model) clamp() {
	m.cursor = min(max(m.cursor, 0), max(len(m.shown)-1, 0))
	b := max(m.body(), 1)
	if m.cursor < m.top {
		m.top = m.cursor
	}
	if m.cursor >= m.top+b {
		m.top = m.cursor - b + 1
	}
	m.top = max(min(m.top, len(m.shown)-b), 0)
}

func (m *Model) helpMap() help.KeyMap {
	if m.child != nil {
		return m.child
	}
	if m.filtering {
		return filterHelp{m.keys}
	}
	return m.keys
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return m.helpMap().ShortHelp() }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return m.helpMap().FullHelp() }

// SetSize implements app.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.footer.SetSize(m.width, 0)
	m.filter.Width = max(m.width-4, 1)
	if m.child != nil {
		m.child.SetSize(m.width, m.height)
	}
	m.clamp()
}

// Column widths in cells; the next action takes the rest.
const (
	wPR       = 30
	wRound    = 5
	wStatus   = 8
	wDeadline = 10
	gap       = "  "
)

// View implements tea.Model.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.child != nil {
		return m.child.View()
	}
	st, w := m.st, m.width
	now := m.cfg.Now()
	m.footer.SetData(footer.Data{Error: m.errText})
	pr := min(wPR, max(w/3, 12))
	next := max(w-2-pr-wRound-wStatus-wDeadline-4*len(gap), 8)
	title := fmt.Sprintf("Loops (%d)", len(m.loops))
	if len(m.shown) != len(m.loops) {
		title = fmt.Sprintf("Loops (%d of %d)", len(m.shown), len(m.loops))
	}
	out := []string{st.Title.Render(common.Fit(title, w))}
	switch {
	case m.filtering:
		out = append(out, common.Fit(m.filter.View(), w))
	case m.filter.Value() != "":
		out = append(out, st.Muted.Render(common.Fit("filter: "+sanitize.Line(m.filter.Value(), w-8)+"  (esc clears)", w)))
	default:
		out = append(out, "")
	}
	head := "  " + common.Pad("PULL REQUEST", pr) + gap + common.Pad("ROUND", wRound) + gap + common.Pad("STATUS", wStatus) + gap + common.Pad("NEXT", next) + gap + "DEADLINE"
	out = append(out, st.Column.Render(common.Fit(head, w)))
	for i := m.top; i < len(m.shown) && i < m.top+m.body(); i++ {
		l := m.loops[m.shown[i]]
		mark := "  "
		if i == m.cursor {
			mark = st.Glyphs.Focus + " "
		}
		id := fmt.Sprintf("#%d", l.Number)
		repo := sanitize.Line(l.Repository, max(pr-ansi.StringWidth(id), 1))
		round := fmt.Sprintf("%d/%d", l.Round, l.MaxRounds)
		deadline := ""
		if l.Request != nil && l.Phase() != status.PhaseFinalized {
			deadline = status.Countdown(l.Request.Deadline, now)
		}
		line := mark + common.Pad(repo+id, pr) + gap + common.Pad(round, wRound) + gap +
			common.Pad(sanitize.Line(l.StatusWord(), wStatus), wStatus) + gap +
			common.Pad(sanitize.Line(l.NextShort(), next), next) + gap + sanitize.Line(deadline, wDeadline)
		line = common.Fit(line, w)
		switch {
		case i == m.cursor:
			line = st.Selected.Render(line)
		case l.Phase() == status.PhaseHalted:
			line = st.Error.Render(line)
		case l.Phase() == status.PhaseAwaitingApproval:
			line = st.Warn.Render(line)
		}
		out = append(out, line)
	}
	if len(m.shown) == 0 {
		msg := "no loops in the registry; start one with `gh-prloop start`"
		if len(m.loops) > 0 {
			msg = "no loop matches the filter"
		}
		out = append(out, st.Muted.Render(common.Fit("  "+msg, w)))
	}
	bodyEnd := m.height - m.footer.Height(m.helpMap())
	for len(out) < bodyEnd {
		out = append(out, "")
	}
	out = append(out[:min(len(out), max(bodyEnd, 0))], strings.Split(m.footer.View(m.helpMap()), "\n")...)
	if len(out) > m.height {
		out = out[:m.height]
	}
	return strings.Join(out, "\n")
}
