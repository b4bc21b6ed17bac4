package approval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/core/docdiff"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Refusal opens the message shown whenever what was typed is not the plan
// hash, or the plan cannot be approved; a reason follows it.
const Refusal = "Not approved"

// Messages shown while the console waits on the caller.
const (
	RecheckingMessage = "Rebuilding the plan from fresh observations…"
	RecordingMessage  = "Recording the approval…"
)

// Config is what New needs besides the styles.
type Config struct {
	View View
	// Recheck rebuilds the whole plan from fresh observations and
	// re-validates it. It runs off the UI goroutine; ctx is cancelled if
	// the human cancels while it runs.
	Recheck func(ctx context.Context) (RecheckResult, error)
	// Record writes the approval and returns one line stating what was
	// approved. It is called only after a Recheck whose plan hash equals
	// the approved one byte for byte.
	Record func(ctx context.Context) (string, error)
	// Context is the parent of the contexts Recheck and Record get;
	// nil means context.Background().
	Context context.Context
	// AddPath, when set, adds a path to the plan's scope (a fix round's
	// paths) and returns the view of the plan rebuilt with it: + opens a
	// path input, and the console then shows the new plan and its new
	// hash. The old hash can no longer be approved: what was typed is
	// cleared and the console compares with the new one. It runs off the
	// UI goroutine.
	AddPath func(ctx context.Context, path string) (View, error)
}

type state int

const (
	stateReview state = iota
	stateChecking
	stateRecording
	stateDrift
	stateFailed
	stateDone
	stateAddPath // the path input has the keyboard
	stateAdding  // AddPath is rebuilding the plan
)

type focus int

const (
	focusSummary focus = iota
	focusFiles
	focusDiff
	focusOps
	focusInput
	focusCount
)

// Model is the approval console. Use it as a tea.Model (pointer receiver).
type Model struct {
	cfg    Config
	st     *theme.Styles
	keys   KeyMap
	fkeys  finishedKeys
	help   help.Model
	width  int
	height int

	state  state
	focus  focus
	result Result
	notice string // the message line: a refusal, progress or a failure
	info   string // a good-news message line (a path added), until typing starts
	cancel context.CancelFunc
	gen    int // the plan shown: bumped when AddPath rebuilds it

	diffs     []*fileDiff // nil until computed (off the UI goroutine)
	diffBusy  bool        // a diff is being computed
	unbound   []string    // per file: why what is shown is not the plan's blob ("" when it is)
	opsInline bool        // the operations are listed by name in the summary
	summary   pane.Model
	files     fileList
	diff      pane.Model
	ops       pane.Model
	drift     pane.Model
	input     hashInput
	pathIn    hashInput // the path to add (the same field: no clipboard program)
	spin      spinner.Model
}

type recheckMsg struct {
	files   []string
	res     RecheckResult
	err     error
	drift   bool
	changes []docdiff.Change
	diffErr error
}

// diffMsg carries a file's diff, computed off the UI goroutine.
type diffMsg struct {
	gen int
	i   int
	d   *fileDiff
}

type recordMsg struct {
	statement string
	err       error
}

// New returns the console for cfg, drawn with st.
func New(cfg Config, st *theme.Styles) *Model {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	m := &Model{cfg: cfg, st: st, keys: NewKeyMap(), fkeys: newFinishedKeys(), focus: focusInput}
	m.keys.AddPath.SetEnabled(cfg.AddPath != nil)
	m.help = help.New()
	m.help.Styles = st.Help
	m.pathIn = newHashInput(st.Text, st.Muted, "a path relative to the checkout, e.g. internal/retry/budget.go", 4096)
	m.load(cfg.View)
	m.summary = pane.New(st)
	m.diff = pane.New(st)
	m.ops = pane.New(st)
	m.drift = pane.New(st)

	// The limit is well above 64, so that a paste with something extra is
	// seen and refused rather than silently cut to a matching hash.
	m.input = newHashInput(st.Text, st.Muted, "type or paste the 64-character plan hash, then enter", 256)
	m.input.Focus()

	m.spin = spinner.New(spinner.WithSpinner(spinner.Spinner{Frames: st.Glyphs.Spinner, FPS: time.Second / 10}))
	m.applyFocus()
	return m
}

// load takes v as the plan shown: its files are hashed against the plan's
// blobs now, their diffs computed lazily.
func (m *Model) load(v View) {
	m.cfg.View = v
	m.gen++
	m.diffBusy = false
	st := m.st
	cfg := m.cfg
	// Hashing every side is cheap (SHA-1 runs at about 1 GB/s) and must be
	// complete before anything can be approved; diffing is not, and is done
	// lazily, the selected file first.
	m.diffs = make([]*fileDiff, len(cfg.View.Files))
	m.unbound = make([]string, len(cfg.View.Files))
	for i, f := range cfg.View.Files {
		m.unbound[i] = f.unbound()
	}
	m.files = newFileList(st, cfg.View.Files, m.diffs, m.unbound)
}

// PlanHash is the hash of the plan shown (a rebuilt one after AddPath).
func (m *Model) PlanHash() string { return m.cfg.View.PlanHash }

// Result reports how the console ended (Pending until it has).
func (m *Model) Result() Result { return m.result }

// Outcome is Result().Outcome.
func (m *Model) Outcome() Outcome { return m.result.Outcome }

// Init implements tea.Model: it starts computing the diffs.
func (m *Model) Init() tea.Cmd { return m.nextDiff() }

// nextDiff computes the selected file's diff if it is missing, else the
// first missing one, one at a time, so the first screen never waits on a
// diff and the counts fill in behind it.
func (m *Model) nextDiff() tea.Cmd {
	if m.diffBusy || len(m.diffs) == 0 {
		return nil
	}
	i := m.files.sel
	if m.diffs[i] != nil {
		i = -1
		for j, d := range m.diffs {
			if d == nil {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return nil
	}
	m.diffBusy = true
	f, gen := m.cfg.View.Files[i], m.gen
	return func() tea.Msg {
		d := diffFile(f)
		return diffMsg{gen: gen, i: i, d: &d}
	}
}

func (m *Model) onDiff(msg diffMsg) tea.Cmd {
	if msg.gen != m.gen {
		return m.nextDiff() // a file of the plan shown before AddPath
	}
	m.diffBusy = false
	if msg.i >= 0 && msg.i < len(m.diffs) {
		m.diffs[msg.i] = msg.d
		if msg.i == m.files.sel {
			m.fillDiff(false)
		}
	}
	return m.nextDiff()
}

// Update implements tea.Model; it only routes.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
		return m, nil
	case tea.KeyMsg:
		return m, m.onKey(msg)
	case recheckMsg:
		return m, m.onRecheck(msg)
	case recordMsg:
		return m, m.onRecord(msg)
	case diffMsg:
		return m, m.onDiff(msg)
	case addPathMsg:
		return m, m.onAddPath(msg)
	case spinner.TickMsg:
		if m.state == stateChecking || m.state == stateRecording || m.state == stateAdding {
			var cmd tea.Cmd
			m.spin, cmd = m.spin.Update(msg)
			return m, cmd
		}
		return m, nil
	}
	return m, nil
}

func (m *Model) onKey(k tea.KeyMsg) tea.Cmd {
	switch m.state {
	case stateReview, stateChecking:
		if key.Matches(k, m.keys.Cancel) {
			return m.finish(Result{Outcome: Cancelled})
		}
	case stateRecording, stateAdding:
		return nil // the write is atomic and short; cancelling now would leave its fate unknown
	case stateAddPath:
		return m.addPathKey(k)
	case stateDrift, stateFailed:
		if key.Matches(k, m.fkeys.Exit) {
			m.state = stateDone
			return tea.Quit
		}
	}
	if m.tooSmall() {
		return nil
	}
	switch m.state {
	case stateReview:
		return m.reviewKey(k)
	case stateDrift:
		if key.Matches(k, m.keys.Help) {
			m.toggleHelp()
			return nil
		}
		return m.drift.Update(k)
	}
	return nil
}

func (m *Model) reviewKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.AddPath):
		return m.openAddPath()
	case key.Matches(k, m.keys.Help):
		m.toggleHelp()
		return nil
	case key.Matches(k, m.keys.Next):
		m.focus = (m.focus + 1) % focusCount
		m.applyFocus()
		return nil
	case key.Matches(k, m.keys.Prev):
		m.focus = (m.focus + focusCount - 1) % focusCount
		m.applyFocus()
		return nil
	case key.Matches(k, m.keys.Submit):
		switch m.focus {
		case focusInput:
			return m.submit()
		case focusFiles:
			m.focus = focusDiff
		default:
			m.focus = focusInput
		}
		m.applyFocus()
		return nil
	}
	switch m.focus {
	case focusSummary:
		return m.summary.Update(k)
	case focusFiles:
		if m.files.Update(k) {
			m.fillDiff(true)
			return m.nextDiff()
		}
		return nil
	case focusDiff:
		return m.diff.Update(k)
	case focusOps:
		return m.ops.Update(k)
	}
	before := m.input.Value()
	m.input.Update(k)
	if m.input.Value() != before {
		m.notice, m.info = "", "" // a new attempt: the old refusal no longer applies
	}
	return nil
}

func (m *Model) applyFocus() {
	m.summary.Blur()
	m.files.Blur()
	m.diff.Blur()
	m.ops.Blur()
	m.input.Blur()
	switch m.focus {
	case focusSummary:
		m.summary.Focus()
	case focusFiles:
		m.files.Focus()
	case focusDiff:
		m.diff.Focus()
	case focusOps:
		m.ops.Focus()
	case focusInput:
		m.input.Focus()
	}
	m.keys.Scroll.SetEnabled(m.focus != focusInput)
	switch m.focus {
	case focusInput:
		m.keys.Submit.SetHelp("enter", "approve")
	case focusFiles:
		m.keys.Submit.SetHelp("enter", "show diff")
	default:
		m.keys.Submit.SetHelp("enter", "go to input")
	}
}

func (m *Model) toggleHelp() {
	m.help.ShowAll = !m.help.ShowAll
	m.SetSize(m.width, m.height)
}

// submit approves only the exact hash (whitespace aside) of a plan whose
// every shown file is the plan's content; anything else is refused, and
// what was typed is kept so that the differing group can be corrected.
func (m *Model) submit() tea.Cmd {
	typed := m.input.Value()
	if why := refusalReason(typed, m.cfg.View.PlanHash); why != "" {
		m.notice = Refusal + ": " + why + "."
		return nil
	}
	for i, why := range m.unbound {
		if why != "" {
			p, _ := shownPath(m.cfg.View.Files[i].Path)
			m.notice = Refusal + ": " + p + " changed since the plan was built; plan again."
			return nil
		}
	}
	if m.cfg.Recheck == nil || m.cfg.Record == nil {
		return m.fail(errors.New("the console was started without a re-check or a recorder"))
	}
	m.state = stateChecking
	m.notice = ""
	m.input.Blur()
	ctx, cancel := context.WithCancel(m.cfg.Context)
	m.cancel = cancel
	return tea.Batch(m.spin.Tick, recheckCmd(ctx, m.cfg.Recheck, m.cfg.View.PlanHash, m.cfg.View.Document, m.cfg.View.Files))
}

// recheckCmd runs off the UI goroutine; it captures only immutable values.
func recheckCmd(ctx context.Context, recheck func(context.Context) (RecheckResult, error), hash string, doc []byte, shown []File) tea.Cmd {
	return func() tea.Msg {
		res, err := recheck(ctx)
		if err != nil {
			return recheckMsg{err: err}
		}
		msg := recheckMsg{res: res}
		if res.PlanHash != hash || (len(doc) > 0 && !bytes.Equal(res.Document, doc)) {
			msg.drift = true
			msg.files = changedFiles(shown, res.Blobs)
			if len(doc) > 0 && len(res.Document) > 0 {
				msg.changes, msg.diffErr = docdiff.Diff(doc, res.Document)
			} else {
				msg.diffErr = errors.New("a document is missing, so only the hashes can be compared")
			}
		}
		return msg
	}
}

func (m *Model) onRecheck(msg recheckMsg) tea.Cmd {
	if m.state != stateChecking {
		return nil
	}
	switch {
	case msg.err != nil:
		return m.fail(fmt.Errorf("the plan could not be rebuilt: %w", msg.err))
	case msg.drift:
		m.release()
		m.result = Result{Outcome: Drift, RebuiltHash: msg.res.PlanHash, Changes: msg.changes, Files: msg.files, Err: msg.diffErr}
		m.state = stateDrift
		m.drift.Focus() // the only pane left: its keys scroll the changes
		m.SetSize(m.width, m.height)
		return nil
	}
	m.state = stateRecording
	ctx, record := m.cfg.Context, m.cfg.Record
	return func() tea.Msg {
		s, err := record(ctx)
		return recordMsg{statement: s, err: err}
	}
}

func (m *Model) onRecord(msg recordMsg) tea.Cmd {
	if m.state != stateRecording {
		return nil
	}
	if msg.err != nil {
		return m.fail(fmt.Errorf("the approval could not be recorded: %w", msg.err))
	}
	return m.finish(Result{Outcome: Approved, Statement: msg.statement})
}

func (m *Model) fail(err error) tea.Cmd {
	m.release()
	m.result = Result{Outcome: Failed, Err: err}
	m.state = stateFailed
	m.notice = err.Error() + "; nothing was approved."
	return nil
}

func (m *Model) finish(r Result) tea.Cmd {
	m.release()
	m.result = r
	m.state = stateDone
	return tea.Quit
}

func (m *Model) release() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
}

// progressLine is the live feedback under the input.
func (m *Model) progressLine() string {
	text, ok := progress(m.input.Value(), m.cfg.View.PlanHash)
	style := m.st.Pass
	if !ok {
		style = m.st.Error
	}
	return style.Render(sanitize.Line(text, m.width))
}
