package watch

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/footer"
	"github.com/prloop/gh-prloop/tui/components/gates"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Screen is a screen the console can hand the terminal to (the approval
// console of the plan that waits): the app.Screen contract.
type Screen interface {
	tea.Model
	help.KeyMap
	SetSize(width, height int)
}

// Config is what the console needs besides its styles.
type Config struct {
	// Context is the console's; loads stop when it ends. A wakeup runs
	// without its cancellation: closing the console never interrupts an
	// operation in flight (Wait lets the caller wait for it).
	Context context.Context
	// Load reads the loop from the run's state directory (checkpoint,
	// history, latest state). It makes no GitHub request. Required.
	Load func(ctx context.Context) (status.Loop, error)
	// Wakeup runs one wakeup through the same code path and lock as
	// `gh-prloop wakeup`, reporting the loop as it changes (operations of a
	// plan being executed). It returns an error wrapping status.ErrLocked
	// when another wakeup holds the lock. Nil: the console only watches.
	Wakeup func(ctx context.Context, progress func(status.Loop)) (status.Loop, error)
	// Approval returns the approval screen for the plan that waits; the
	// screen ends with tea.Quit, which returns to this console. Nil: the
	// console says how to approve from the command line.
	Approval func(l status.Loop) (Screen, error)
	Now      func() time.Time   // nil: time.Now
	Notify   func(Notification) // nil: no notification
	Browse   func(url string) error
	Copy     func(text string) error
	// Markdown is the glamour standard style of the thread detail:
	// "notty" (the default; no colour), "dark" or "light".
	Markdown string
	// Prompts are the questions this console's wakeups ask (the hand edit
	// and the diff before the commit, approval-gated mode); their hooks
	// are wired into the executors Wakeup runs. Nil: none are asked.
	Prompts *Prompts
}

// tickMsg is one second of the clock, tagged with the clock's generation.
type tickMsg struct{ gen int }

type loadedMsg struct {
	seq  int
	loop status.Loop
	err  error
}

type actionMsg struct{ status, err string }

// approvalEndedMsg is the approval screen's tea.Quit, caught.
type approvalEndedMsg struct{}

// reloadEvery is how many clock seconds pass between reads of the run's
// state, so that a scheduled wakeup's history shows up here. A read is
// local and costs no request.
const reloadEvery = 5

// Model is the watch console of one loop.
type Model struct {
	cfg  Config
	ctx  context.Context
	st   *theme.Styles
	keys KeyMap
	// tick schedules one clock step; tests replace it to step by hand.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

	loop      status.Loop
	loaded    bool
	loadSeq   int
	loading   bool
	gen       int
	frame     int
	seconds   int
	flight    *flight
	lockWait  bool
	autoFor   time.Time // the NextWakeup a scheduled wakeup was started for
	alertKey  string
	approvedH string // plan hash whose approval screen was already shown
	errText   string
	note      string
	inflight  *sync.WaitGroup

	threads threadList
	detail  *detail
	child   Screen
	prompt  prompt // the question of the wakeup in flight, answered here
	ask     *ask
	footer  footer.Model
	gates   gates.Model
	width   int
	height  int
}

// New returns the console. Config.Load must not be nil.
func New(cfg Config, st *theme.Styles) *Model {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Markdown == "" {
		cfg.Markdown = "notty"
	}
	return &Model{
		cfg: cfg, ctx: cfg.Context, st: st, keys: NewKeyMap(), tick: tea.Tick,
		threads: newThreadList(st), footer: footer.New(st), gates: gates.New(st),
		inflight: &sync.WaitGroup{},
	}
}

// Loop returns the loop as last shown.
func (m *Model) Loop() status.Loop { return m.loop }

// Wait blocks until no wakeup started by this console is running: the
// caller calls it after the program ended, so that closing the console
// lets an operation in flight finish instead of killing it with the
// process. A question nobody can answer any more (the hand edit, the
// diff) is answered with ErrClosed first, so the wakeup ends without a
// yes or a no and the round stays resumable.
func (m *Model) Wait() {
	if m.cfg.Prompts != nil {
		m.cfg.Prompts.Close()
	}
	m.inflight.Wait()
}

// Busy reports whether a wakeup started here is still running.
func (m *Model) Busy() bool { return m.flight != nil }

// CapturesKeys reports whether a screen that takes text (the hash input)
// has the keyboard, so that the root does not quit on "q".
func (m *Model) CapturesKeys() bool { return m.child != nil && m.prompt == nil }

// Init loads the loop and starts the clock.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.load(), m.clock()) }

func (m *Model) clock() tea.Cmd {
	m.gen++
	gen := m.gen
	return m.tick(time.Second, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

func (m *Model) load() tea.Cmd {
	m.loadSeq++
	m.loading = true
	seq, ctx, load := m.loadSeq, m.ctx, m.cfg.Load
	return func() tea.Msg {
		l, err := load(ctx)
		return loadedMsg{seq: seq, loop: l, err: err}
	}
}

// wakeup starts one wakeup unless one is running.
func (m *Model) wakeup() tea.Cmd {
	if m.cfg.Wakeup == nil || m.flight != nil {
		return nil
	}
	m.loadSeq++ // a load in flight is older than what the wakeup brings
	m.loading = false
	m.lockWait = false
	f := newFlight(m.loadSeq, m.cfg.Prompts.channel())
	m.flight = f
	m.inflight.Add(1)
	ctx, run := context.WithoutCancel(m.ctx), m.cfg.Wakeup
	go func() {
		defer m.inflight.Done()
		l, err := run(ctx, f.progress)
		f.finish(l, err)
	}()
	m.relayout()
	return f.listen()
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && m.prompt != nil {
		return m, m.promptKey(k)
	}
	if m.child != nil {
		switch msg.(type) {
		case tea.KeyMsg, tea.WindowSizeMsg, approvalEndedMsg:
			return m, m.childUpdate(msg)
		}
	}
	switch msg := msg.(type) {
	case tickMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		return m, tea.Batch(m.onTick(), m.clock())
	case loadedMsg:
		if msg.seq != m.loadSeq {
			return m, nil
		}
		m.loading = false
		if msg.err != nil {
			m.errText = "reading the loop failed: " + msg.err.Error()
			m.relayout()
			return m, nil
		}
		m.errText = ""
		if m.lockWait && msg.loop.Lock.HeldBy == "" {
			m.lockWait = false
		}
		return m, m.apply(msg.loop)
	case progressMsg:
		if msg.f != m.flight {
			return m, nil
		}
		return m, tea.Batch(m.apply(msg.loop), msg.f.listen())
	case wakeupDoneMsg:
		return m, m.wakeupDone(msg)
	case askMsg:
		return m, m.openPrompt(msg)
	case actionMsg:
		m.note, m.errText = msg.status, msg.err
		m.relayout()
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	if m.child != nil {
		// the approval screen's own messages (its re-check, its record,
		// its diffs and spinner) are its own
		return m, m.childUpdate(msg)
	}
	return m, nil
}

func (m *Model) onTick() tea.Cmd {
	m.frame++
	m.seconds++
	var cmds []tea.Cmd
	l := m.loop
	now := m.cfg.Now()
	p := l.Phase()
	due := m.loaded && !l.NextWakeup.IsZero() && !now.Before(l.NextWakeup) && !l.NextWakeup.Equal(m.autoFor)
	if due && m.cfg.Wakeup != nil && m.flight == nil && !m.lockWait && p != status.PhaseFinalized && p != status.PhaseHalted {
		m.autoFor = l.NextWakeup
		cmds = append(cmds, m.wakeup())
	} else if m.flight == nil && !m.loading && (m.lockWait || m.seconds%reloadEvery == 0) {
		cmds = append(cmds, m.load())
	}
	m.relayout()
	return tea.Batch(cmds...)
}

func (m *Model) wakeupDone(msg wakeupDoneMsg) tea.Cmd {
	if msg.f != m.flight {
		return nil
	}
	m.flight = nil
	switch {
	case errors.Is(msg.err, status.ErrLocked):
		m.lockWait = true
		m.errText = ""
		m.relayout()
		return m.load()
	case msg.err != nil:
		m.errText = "wakeup failed: " + msg.err.Error()
		if msg.loop.Key == "" && msg.loop.Number == 0 {
			m.relayout()
			return m.load()
		}
	default:
		m.errText = ""
	}
	return m.apply(msg.loop)
}

// apply shows a new loop, rings when it starts needing a person, and
// switches to the approval screen of a newly waiting plan.
func (m *Model) apply(l status.Loop) tea.Cmd {
	first := !m.loaded
	m.loop, m.loaded = l, true
	m.threads.setData(l.Threads)
	if m.detail != nil {
		for _, t := range l.Threads {
			if t.ID == m.detail.thread.ID && t.Body != m.detail.thread.Body {
				m.detail.thread = t
				m.detail.render()
			}
		}
	}
	var cmds []tea.Cmd
	p := l.Phase()
	key := ""
	if p.NeedsHuman() {
		key = string(p) + "\x00" + l.HaltReason() + "\x00" + l.Next.PlanHash
	}
	if key != m.alertKey && key != "" && !first && m.cfg.Notify != nil {
		m.cfg.Notify(notification(l))
	}
	m.alertKey = key
	if p == status.PhaseAwaitingApproval && m.cfg.Approval != nil && l.Next.PlanHash != m.approvedH {
		if c, ok := m.child.(interface{ PlanHash() string }); ok && c.PlanHash() == l.Next.PlanHash {
			// the open screen rebuilt this plan itself (a path added): it
			// already shows it, with its notice
			m.approvedH = l.Next.PlanHash
		} else {
			cmds = append(cmds, m.openApproval())
		}
	}
	m.relayout()
	return tea.Batch(cmds...)
}

func notification(l status.Loop) Notification {
	id := l.Repository + "#" + itoa(l.Number)
	if l.Phase() == status.PhaseHalted {
		return Notification{Title: "gh-prloop: halted", Body: id + " — " + status.HaltWords(l.HaltReason())}
	}
	return Notification{Title: "gh-prloop: approval needed", Body: id + " — the " + orDefault(l.Next.PlanKind, "next") + " plan waits for its hash"}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func (m *Model) openApproval() tea.Cmd {
	m.approvedH = m.loop.Next.PlanHash
	scr, err := m.cfg.Approval(m.loop)
	if err != nil {
		m.errText = "opening the approval screen failed: " + err.Error()
		return nil
	}
	m.child = scr
	m.child.SetSize(m.width, m.height)
	return catchQuit(m.child.Init())
}

// childUpdate routes to the approval screen; its end (tea.Quit, caught)
// returns here with a fresh load and, when this console drives the loop,
// a wakeup, which executes the plan if the approval was recorded (the
// evaluator decides, not the screen).
func (m *Model) childUpdate(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case approvalEndedMsg:
		m.child = nil
		m.relayout()
		if m.cfg.Wakeup != nil {
			return m.wakeup()
		}
		return m.load()
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
		return nil
	}
	next, cmd := m.child.Update(msg)
	m.child = next.(Screen)
	return catchQuit(cmd)
}

// catchQuit turns a child's tea.Quit into approvalEndedMsg, so that the
// child ends itself and not the program.
func catchQuit(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case tea.QuitMsg:
			return approvalEndedMsg{}
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = catchQuit(c)
			}
			return out
		default:
			return msg
		}
	}
}

// openPrompt shows the question of the wakeup in flight. The flight is
// listened to again once the question is answered: until then the
// executor waits, and so does the console's listener.
func (m *Model) openPrompt(msg askMsg) tea.Cmd {
	if msg.f != m.flight {
		msg.a.answer(ErrClosed) // a wakeup this console no longer follows
		return nil
	}
	m.ask, m.detail = msg.a, nil
	id := m.loop.Repository + "#" + itoa(m.loop.Number)
	n := Notification{Title: "gh-prloop: edit by hand", Body: id + " — fix round " + itoa(int64(m.loop.Round+1)) + " waits for your edit"}
	if msg.a.kind == askDiff {
		m.prompt = newDiffConfirm(m.st, m.loop, msg.a.diff)
		n = Notification{Title: "gh-prloop: confirm the diff", Body: id + " — the fix round's diff waits for your confirmation"}
	} else {
		m.prompt = newHandEdit(m.st, m.loop, msg.a.paths)
	}
	if m.cfg.Notify != nil {
		m.cfg.Notify(n)
	}
	m.relayout()
	return nil
}

// promptKey answers the question on its screen's keys; ? toggles the help
// (q and ctrl+c are the root's: the console closes, and Wait answers
// ErrClosed).
func (m *Model) promptKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, m.keys.Help) {
		m.footer.ShowAll(!m.footer.ShowingAll())
		m.relayout()
		return nil
	}
	answer, done := m.prompt.key(k)
	if !done {
		return nil
	}
	m.ask.answer(answer)
	m.prompt, m.ask = nil, nil
	m.relayout()
	if m.flight != nil {
		return m.flight.listen()
	}
	return nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Help):
		m.footer.ShowAll(!m.footer.ShowingAll())
	case key.Matches(k, m.keys.Wakeup):
		if m.flight != nil {
			m.note = "a wakeup is already running"
			break
		}
		if m.cfg.Wakeup == nil {
			return m.load()
		}
		return m.wakeup()
	case key.Matches(k, m.keys.Browse):
		return m.browse()
	case key.Matches(k, m.keys.Yank):
		return m.yank()
	case m.detail != nil && key.Matches(k, m.keys.Back):
		m.detail = nil
	case m.detail != nil:
		m.detail.scrollKey(k)
	case key.Matches(k, m.keys.Up):
		m.threads.move(-1)
	case key.Matches(k, m.keys.Down):
		m.threads.move(1)
	case key.Matches(k, m.keys.Open):
		if t, ok := m.threads.selected(); ok {
			m.detail = newDetail(m.st, t, m.cfg.Markdown)
		}
	case key.Matches(k, m.keys.Approve):
		if m.loop.Phase() == status.PhaseAwaitingApproval && m.cfg.Approval != nil {
			return m.openApproval()
		}
	}
	m.relayout()
	return nil
}

// target is the URL o and y act on: the open or selected thread's, else
// the pull request's.
func (m *Model) target() string {
	if m.detail != nil && m.detail.thread.URL != "" {
		return m.detail.thread.URL
	}
	if t, ok := m.threads.selected(); ok && t.URL != "" {
		return t.URL
	}
	return m.loop.URL
}

func (m *Model) browse() tea.Cmd {
	u, open := m.target(), m.cfg.Browse
	if u == "" || open == nil {
		return nil
	}
	return func() tea.Msg {
		if err := open(u); err != nil {
			return actionMsg{err: "opening the browser failed: " + err.Error()}
		}
		return actionMsg{status: "opened " + u + " in the browser"}
	}
}

func (m *Model) yank() tea.Cmd {
	u, cp := m.target(), m.cfg.Copy
	if u == "" || cp == nil {
		return nil
	}
	return func() tea.Msg {
		if err := cp(u); err != nil {
			return actionMsg{err: "copying failed: " + err.Error()}
		}
		return actionMsg{status: "copied " + u}
	}
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return m.helpMap().ShortHelp() }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return m.helpMap().FullHelp() }

func (m *Model) helpMap() help.KeyMap {
	if m.prompt != nil {
		return promptHelp{p: m.prompt, width: m.width}
	}
	if m.child != nil {
		return m.child
	}
	if m.detail != nil {
		return detailHelp{k: m.keys, width: m.width}
	}
	return listHelp{k: m.keys, approval: m.cfg.Approval != nil && m.loop.Phase() == status.PhaseAwaitingApproval, width: m.width}
}

// SetSize implements app.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	if m.child != nil {
		m.child.SetSize(m.width, m.height)
	}
	m.relayout()
}

func (m *Model) footerData() footer.Data {
	d := footer.Data{Error: m.errText}
	switch {
	case m.prompt != nil:
		d.Status = "the wakeup waits for your answer (q closes; the round then waits)"
	case m.flight != nil:
		d.Status = "waking up: observing GitHub and evaluating…"
	case m.lockWait:
		d.Status = "another wakeup holds the lock; the screen refreshes when it is released"
	case m.loop.Lock.HeldBy != "":
		d.Status = m.loop.Lock.HeldBy + " holds the lock"
	case m.note != "":
		d.Status = m.note
	}
	if !m.loop.ObservedAt.IsZero() {
		d.Info = append(d.Info, "observed "+m.loop.ObservedAt.UTC().Format("15:04:05Z"))
	}
	if m.loop.Err != "" {
		d.Info = append(d.Info, "note: "+m.loop.Err)
	}
	return d
}

// countdowns are the header's two clocks, from the console's clock.
func (m *Model) countdowns(l status.Loop) (wakeup, deadline string) {
	now := m.cfg.Now()
	if l.Request != nil {
		deadline = status.Countdown(l.Request.Deadline, now)
	}
	return status.Countdown(l.NextWakeup, now), deadline
}

func (m *Model) relayout() {
	m.footer.SetData(m.footerData())
	m.footer.SetSize(m.width, 0)
	if m.detail != nil {
		m.detail.SetSize(m.width, max(m.height-m.footer.Height(m.helpMap()), 0))
	}
	if m.prompt != nil {
		m.prompt.SetSize(m.width, max(m.height-m.footer.Height(m.helpMap()), 0))
	}
}

// View implements tea.Model. It never draws more lines than the terminal.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.child != nil && m.prompt == nil {
		return m.child.View()
	}
	w, h := m.width, m.height
	foot := m.footer.View(m.helpMap())
	fh := m.footer.Height(m.helpMap())
	var body []string
	switch {
	case m.prompt != nil:
		body = strings.Split(m.prompt.View(), "\n")
	case m.detail != nil:
		body = strings.Split(m.detail.View(), "\n")
	default:
		body = m.mainLines(w, max(h-fh, 0))
	}
	lines := append(body, strings.Split(foot, "\n")...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

func (m *Model) mainLines(w, h int) []string {
	if !m.loaded {
		return []string{m.st.Banner.Render("LOADING — reading the loop…")}
	}
	o := overview{st: m.st, l: m.loop, frame: m.frame, countTo: m.countdowns, approval: m.cfg.Approval != nil, width: w, gates: m.gates}
	top := o.lines()
	rest := h - len(top)
	var ops []string
	if m.loop.Execution != nil && len(m.loop.Execution.Operations) > 0 {
		kind := orDefault(m.loop.Execution.PlanKind, "plan")
		ops = section(m.st, "Operations ("+kind+")", operationLines(m.st, m.loop.Execution, m.frame, w-2), w, min(len(m.loop.Execution.Operations)+1, max(rest-4, 2)))
	}
	rest -= len(ops)
	spacer := rest >= 14
	if spacer {
		rest--
	}
	hist := historyLines(m.st, m.loop.History, w-2)
	histMin := min(len(hist)+1, 4)
	if len(hist) == 0 {
		histMin = 2
	}
	th := min(m.threads.want(), max(rest-histMin, min(rest, 2)))
	th = max(th, 0)
	m.threads.SetSize(w, th)
	out := top
	if spacer {
		out = append(out, "")
	}
	out = append(out, ops...)
	if tv := m.threads.View(); tv != "" {
		out = append(out, strings.Split(tv, "\n")...)
	}
	out = append(out, section(m.st, "History", hist, w, rest-th)...)
	if len(out) > h {
		out = out[:h]
	}
	return out
}
