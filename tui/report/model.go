package report

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/components/banner"
	"github.com/prloop/gh-prloop/tui/components/footer"
	"github.com/prloop/gh-prloop/tui/components/gates"
	"github.com/prloop/gh-prloop/tui/components/header"
	"github.com/prloop/gh-prloop/tui/components/responses"
	"github.com/prloop/gh-prloop/tui/components/threads"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Fetch observes the pull request and returns a fresh View. It is called
// from a Bubble Tea command (never from Update), with the console's
// context, which is cancelled when the console exits.
type Fetch func(ctx context.Context) (View, error)

// fetchedMsg carries a fetch's result back, tagged with the fetch it
// answers so that a slow, superseded fetch cannot overwrite a newer view.
type fetchedMsg struct {
	seq  int
	view View
	err  error
}

// tickMsg is one second of the watch countdown, tagged with the countdown
// it belongs to so that a manual refresh can cancel a pending one.
type tickMsg struct{ gen int }

type focus int

const (
	focusResponses focus = iota
	focusThreads
)

// Model is the report console screen. Use New; the zero value is not
// usable.
type Model struct {
	ctx    context.Context
	fetch  Fetch
	watch  bool
	period int // seconds between refreshes in watch mode
	// tick schedules one countdown step; tests replace it to advance the
	// countdown by hand instead of waiting on the wall clock.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

	st        *theme.Styles
	keys      KeyMap
	header    header.Model
	banner    banner.Model
	gates     gates.Model
	responses responses.Model
	threads   threads.Model
	footer    footer.Model
	focus     focus

	view      View
	loaded    bool // a fetch has succeeded at least once
	fetching  bool
	fetchErr  string
	lastErr   error // the error behind fetchErr
	seq       int   // id of the latest fetch
	gen       int   // id of the live countdown
	remaining int   // seconds until the next watch refresh

	width, height int

	// target is the pull request asked for, shown until the first fetch
	// answers; simulated says the data comes from the GitHub simulator.
	targetRepo   string
	targetNumber int64
	simulated    bool

	detail *detail // the open detail view, or nil
	status string  // the last notice (a retry, a wait, a copied URL)

	// browse and copy act on a URL; tests replace them.
	browse func(url string) error
	copy   func(url string) error
}

// SetTarget names the pull request asked for, so that the console says
// which one it is loading, and whether the data comes from the simulator.
func (m *Model) SetTarget(repository string, number int64, simulated bool) {
	m.targetRepo, m.targetNumber, m.simulated = repository, number, simulated
	m.apply()
}

// SetActions replaces what o (open in the browser) and y (copy the URL)
// do; nil keeps the current one.
func (m *Model) SetActions(browse, copy func(url string) error) {
	if browse != nil {
		m.browse = browse
	}
	if copy != nil {
		m.copy = copy
	}
}

// New returns the report screen. Fetch must not be nil. Interval is the
// watch period, rounded up to whole seconds; <= 0 means DefaultInterval.
func New(ctx context.Context, fetch Fetch, interval time.Duration, watch bool, st *theme.Styles) *Model {
	if interval <= 0 {
		interval = DefaultInterval
	}
	m := &Model{
		ctx: ctx, fetch: fetch, watch: watch,
		period: int((interval + time.Second - 1) / time.Second),
		tick:   tea.Tick,
		st:     st, keys: NewKeyMap(),
		header: header.New(st), banner: banner.New(st), gates: gates.New(st),
		responses: responses.New(st), threads: threads.New(st), footer: footer.New(st),
		focus:  focusThreads,
		browse: func(string) error { return errors.New("no browser") },
		copy:   func(string) error { return errors.New("no clipboard") },
	}
	m.applyFocus()
	m.apply()
	return m
}

// DefaultInterval is the watch period when none is given: the one
// `gh pr checks --watch` uses.
const DefaultInterval = 10 * time.Second

// Current returns the last good view and the last fetch error ("" when the
// last fetch succeeded).
func (m *Model) Current() (View, string) { return m.view, m.fetchErr }

// Init starts the first fetch.
func (m *Model) Init() tea.Cmd { return m.startFetch() }

func (m *Model) startFetch() tea.Cmd {
	m.seq++
	m.gen++ // a pending countdown step is now stale
	m.fetching = true
	m.relayout()
	seq, fetch, ctx := m.seq, m.fetch, m.ctx
	return func() tea.Msg {
		v, err := fetch(ctx)
		return fetchedMsg{seq: seq, view: v, err: err}
	}
}

func (m *Model) countdown() tea.Cmd {
	gen := m.gen
	return m.tick(time.Second, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case fetchedMsg:
		return m, m.fetched(msg)
	case tickMsg:
		if msg.gen != m.gen || m.fetching {
			return m, nil
		}
		m.remaining--
		if m.remaining <= 0 {
			return m, m.startFetch()
		}
		m.relayout()
		return m, m.countdown()
	case spinner.TickMsg:
		return m, m.banner.Update(msg)
	case statusMsg:
		m.status = msg.text
		m.relayout()
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) fetched(msg fetchedMsg) tea.Cmd {
	if msg.seq != m.seq {
		return nil
	}
	m.fetching = false
	var cmds []tea.Cmd
	if msg.err != nil {
		prefix := "refresh failed: "
		if !m.loaded {
			prefix = "could not load the pull request: "
		}
		m.fetchErr, m.lastErr = prefix+msg.err.Error(), msg.err
		if m.loaded {
			m.fetchErr += " (showing the last good report)"
		}
	} else {
		m.view, m.loaded, m.fetchErr, m.lastErr, m.status = msg.view, true, "", nil, ""
		cmds = append(cmds, m.apply())
		if m.detail != nil {
			m.detail = m.reopen()
		}
	}
	if m.watch {
		m.gen++
		m.remaining = m.period
		cmds = append(cmds, m.countdown())
	}
	m.relayout()
	return tea.Batch(cmds...)
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	if m.detail != nil {
		switch {
		case key.Matches(k, m.keys.Back):
			m.detail = nil
			m.relayout()
			return nil
		case key.Matches(k, m.keys.Browse, m.keys.Copy):
			return m.act(k, m.detail.it.url)
		case key.Matches(k, m.keys.Refresh, m.keys.Help):
		default:
			return m.detail.pane.Update(k)
		}
	}
	switch {
	case key.Matches(k, m.keys.Open, m.keys.Info) && m.detail == nil:
		it, ok := m.selected()
		if !ok || key.Matches(k, m.keys.Info) {
			it = prItem(m.view) // an empty list: the pull request itself
		}
		m.detail = newDetail(m.st, it)
		m.detail.pr = !ok || key.Matches(k, m.keys.Info)
		m.relayout()
	case key.Matches(k, m.keys.Browse, m.keys.Copy):
		it, ok := m.selected()
		if !ok {
			it.url = m.view.URL // no row: the pull request itself
		}
		return m.act(k, it.url)
	case key.Matches(k, m.keys.Refresh):
		if m.fetching {
			return nil
		}
		return m.startFetch()
	case key.Matches(k, m.keys.Focus):
		m.focus = 1 - m.focus
		m.applyFocus()
	case key.Matches(k, m.keys.Help):
		m.footer.ShowAll(!m.footer.ShowingAll())
		m.relayout()
	default:
		if m.focus == focusResponses {
			return m.responses.Update(k)
		}
		return m.threads.Update(k)
	}
	return nil
}

// selected is the row under the focused pane's cursor.
func (m *Model) selected() (item, bool) {
	if m.focus == focusResponses {
		r, ok := m.responses.Selected()
		return responseItem(r, m.responses.Request()), ok
	}
	r, ok := m.threads.Selected()
	return threadItem(r), ok
}

// reopen refreshes an open detail view after a refresh: the same row
// number of the same pane, or closed when that row is gone.
func (m *Model) reopen() *detail {
	it, ok := m.selected()
	if m.detail.pr {
		it, ok = prItem(m.view), true
	}
	if !ok {
		return nil
	}
	m.detail.it = it // same pane: the scroll position is kept
	return m.detail
}

// actionMsg is the outcome of o or y, for the status line.
type actionMsg = statusMsg

// act opens url in the browser (o) or copies it (y), off the event loop.
// Only a web URL is acted on: it came from GitHub and is untrusted.
func (m *Model) act(k tea.KeyMsg, url string) tea.Cmd {
	shown := sanitize.Line(url, 200)
	if !strings.HasPrefix(url, "https://") || shown != url {
		return func() tea.Msg { return actionMsg{text: "nothing to open: this item has no web address"} }
	}
	if key.Matches(k, m.keys.Copy) {
		copyURL := m.copy
		return func() tea.Msg {
			if err := copyURL(url); err != nil {
				return actionMsg{text: "could not copy the URL: " + err.Error()}
			}
			return actionMsg{text: "copied to the clipboard: " + url}
		}
	}
	browse := m.browse
	return func() tea.Msg {
		if err := browse(url); err != nil {
			// The launcher's own error ("exec: xdg-open…") names no fix.
			return actionMsg{text: "could not open a browser (set GH_BROWSER or BROWSER); y copies the link instead"}
		}
		return actionMsg{text: "opened in the browser: " + url}
	}
}

func (m *Model) applyFocus() {
	if m.focus == focusResponses {
		m.responses.Focus()
		m.threads.Blur()
	} else {
		m.threads.Focus()
		m.responses.Blur()
	}
}

// apply hands the view to the components; it returns the banner's
// spinner command when Codex has started reviewing.
func (m *Model) apply() tea.Cmd {
	v := m.view
	hd := headerData(v)
	if !m.loaded {
		hd.Repository, hd.Number, hd.Loading = m.targetRepo, m.targetNumber, true
	}
	hd.Simulated = m.simulated
	m.header.SetData(hd)
	m.responses.SetLoading(!m.loaded)
	m.threads.SetLoading(!m.loaded)
	cmd := m.banner.SetData(bannerData(v, !m.loaded))
	m.gates.SetData(gatesData(v))
	m.responses.SetData(requestData(v), responseRows(v))
	m.threads.SetData(threadRows(v))
	m.relayout()
	return cmd
}

func (m *Model) footerData() footer.Data {
	d := footer.Data{}
	switch {
	case m.fetchErr != "":
		d.Error = m.fetchErr
	case m.view.Err != "":
		d.Error = "error: " + m.view.Err
	}
	d.Status = m.status
	switch {
	case m.fetching:
		d.Info = append(d.Info, "refreshing…")
	case m.watch:
		d.Info = append(d.Info, fmt.Sprintf("next refresh in %ds", m.remaining))
	}
	if m.view.Cost != "" {
		d.Info = append(d.Info, "cost "+m.view.Cost)
	}
	return d
}

func (m *Model) helpMap() helpMap {
	if m.detail != nil {
		return helpMap{k: m.keys, scroll: m.detail.pane.Keys.Scroll, detail: true}
	}
	if m.focus == focusResponses {
		return helpMap{k: m.keys, scroll: m.responses.Keys.Scroll}
	}
	return helpMap{k: m.keys, scroll: m.threads.Keys.Scroll}
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return m.helpMap().ShortHelp() }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return m.helpMap().FullHelp() }

// SetSize implements app.Screen.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.relayout()
}

// spacerMin is the room the panes must have left before blank lines are
// spent on separating sections.
const spacerMin = 14

// relayout sizes every component for the current data and terminal. The
// fixed parts take what they need; the two panes share the rest, the
// responses table never taking more than half.
func (m *Model) relayout() {
	w := m.width
	m.footer.SetData(m.footerData())
	m.header.SetSize(w, header.Height)
	m.banner.SetSize(w, 0)
	m.gates.SetSize(w, 0)
	m.footer.SetSize(w, 0)
	bh, gh, fh := m.banner.Height(), m.gates.Height(), m.footer.Height(m.helpMap())
	m.banner.SetSize(w, bh)
	m.gates.SetSize(w, gh)
	m.footer.SetSize(w, fh)

	rest := m.height - header.Height - bh - gh - fh
	if rest >= spacerMin {
		rest -= 2
	}
	rest = max(rest, 0)
	if m.detail != nil {
		// The detail view takes everything between the header and the
		// footer: it is where long text is read.
		m.detail.setSize(w, max(m.height-header.Height-1-fh, 0))
		return
	}
	want := m.responses.Want()
	rh := min(want, max(rest/2, min(want, 4)), rest)
	m.responses.SetSize(w, rh)
	m.threads.SetSize(w, rest-rh)
}

// View implements tea.Model. The result never has more lines than the
// terminal: a layout error would otherwise scroll the header away.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.detail != nil {
		return fitLines(strings.Join([]string{m.header.View(), "", m.detail.pane.View(), m.footer.View(m.helpMap())}, "\n"), m.height)
	}
	spacer := m.height-header.Height-m.banner.Height()-m.gates.Height()-m.footer.Height(m.helpMap()) >= spacerMin
	parts := []string{m.header.View()}
	if spacer {
		parts = append(parts, "")
	}
	parts = append(parts, m.banner.View(), m.gates.View())
	if spacer {
		parts = append(parts, "")
	}
	for _, p := range []string{m.responses.View(), m.threads.View()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	parts = append(parts, m.footer.View(m.helpMap()))
	return fitLines(strings.Join(parts, "\n"), m.height)
}

// fitLines keeps the first height lines of s.
func fitLines(s string, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	return strings.Join(lines, "\n")
}
