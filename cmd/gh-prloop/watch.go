package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
	"github.com/cli/go-gh/v2/pkg/browser"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/loop/live"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
	"github.com/prloop/gh-prloop/tui/watch"
	"github.com/prloop/gh-prloop/tui/watch/all"
)

func newWatchCmd(env planEnv) *cobra.Command {
	var showAll bool
	cmd := &cobra.Command{
		Use:   "watch [KEY | PR] [--all]",
		Short: "The live console of a running loop: it drives wakeups and shows threads, gates and history",
		Long: `Open the live console of one loop (KEY, an automation key or id, OWNER/REPO#NUMBER,
or the pull request number of a loop in the registry; without either, the only loop).
While it is open it drives the loop: a wakeup on the automation's rrule and on
r, each through the same code path and run lock as 'gh-prloop wakeup'. When a
scheduled wakeup holds the lock, the console says so and refreshes once it is
released. Closing it never interrupts an operation in flight: it waits for the
wakeup to finish.

Between wakeups the console reads only the state directory: no GitHub
request. A terminal bell (and an OSC 9 notification on terminals that show
one) rings when a plan needs approval or the loop halts.

--all shows every loop of the registry in one table: enter opens a loop, esc
returns, / filters.

When a plan waits, the console switches to its approval screen (+ adds a
path to a fix round's scope; the plan and its hash are rebuilt). An
approval-gated fix round without a fixer is edited by hand here: the console
lists the files to change and waits for enter, then shows the resulting diff
and commits it only on y (n refuses; q leaves the round waiting for the next
console).

Keys: j/k move, enter opens a thread (markdown), o opens it in the browser,
y copies its URL, r wakes the loop now, ? help, q quit.`,
		Example: "  gh-prloop watch\n  gh-prloop watch 42\n  gh-prloop watch --all",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if showAll && len(args) == 1 {
				return exitWith(2, "name one loop or pass --all, not both")
			}
			out := cmd.OutOrStdout()
			if !theme.IsTTY(out, env.getenv) {
				return exitWith(1, "watch needs a terminal; in scripts use 'gh-prloop wakeup --json'")
			}
			d, err := wakeupDeps(cmd, env)
			if err != nil {
				return err
			}
			w := newWatchWiring(cmd, env, d)
			w.withEvents = func(o wakeup.RemediationOptions) (wakeup.Deps, error) { return wakeupDepsWith(cmd, env, o) }
			var screen app.Screen
			if showAll {
				screen = all.New(all.Config{Context: cmd.Context(), Now: env.now,
					List: func(ctx context.Context) ([]status.Loop, error) { return live.List(ctx, d) },
					Open: func(l status.Loop) (watch.Screen, error) { return w.console(l.Key), nil },
				}, w.styles)
			} else {
				key, err := watchKey(cmd, d.Registry, args)
				if err != nil {
					return err
				}
				screen = w.console(key)
			}
			root := app.New(screen, w.styles)
			// Drawn at a known size from the start: a terminal reports its
			// own at once, but a scripted session (GH_FORCE_TTY into a pipe)
			// never does, and the root ignores keys until it has one.
			cols, rows := initialSize(out)
			root.Update(tea.WindowSizeMsg{Width: cols, Height: rows})
			p := tea.NewProgram(root, tea.WithContext(cmd.Context()), tea.WithOutput(out), watchInput(cmd.InOrStdin()), tea.WithAltScreen())
			_, runErr := p.Run()
			w.wait(cmd.ErrOrStderr())
			if runErr != nil && !(errors.Is(runErr, tea.ErrProgramKilled) && cmd.Context().Err() != nil) {
				return exitWith(1, "watch: %v", runErr)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&showAll, "all", false, "every loop of the registry in one table")
	return cmd
}

// watchWiring builds consoles that share the styles and the notifier, and
// remembers them so the command can wait for their wakeups in flight.
type watchWiring struct {
	env    planEnv
	deps   wakeup.Deps
	styles *theme.Styles
	color  bool
	out    io.Writer
	errOut io.Writer
	ctx    context.Context

	// approverID is the approving account's id (and approverLogin its
	// login); 0 reads them from GitHub when first needed.
	approverID    int64
	approverLogin string
	cmd           *cobra.Command
	// withEvents builds the wakeup deps with executors that report to a
	// console's live operation list and ask its prompts (consoleOptions);
	// nil keeps deps as they are.
	withEvents func(opts wakeup.RemediationOptions) (wakeup.Deps, error)

	mu       sync.Mutex
	consoles []*watch.Model
}

func newWatchWiring(cmd *cobra.Command, env planEnv, d wakeup.Deps) *watchWiring {
	out := cmd.OutOrStdout()
	color := theme.ColorEnabled(env.getenv, true)
	st := theme.New(theme.NewRenderer(out, color), theme.Default())
	w := &watchWiring{env: env, deps: d, styles: &st, color: color, out: out, errOut: cmd.ErrOrStderr(), ctx: cmd.Context()}
	w.cmd = cmd
	return w
}

func (w *watchWiring) console(key string) *watch.Model {
	src := &live.Source{Deps: w.deps, Key: key}
	prompts := watch.NewPrompts()
	if w.withEvents != nil {
		// this console's own executors report to its operation list and
		// ask it for the hand edit and the diff
		if d, err := w.withEvents(consoleOptions(src.Event, prompts)); err == nil {
			src.Deps = d
		}
	}
	md := "notty"
	if w.color {
		md = "dark"
	}
	m := watch.New(watch.Config{
		Context: w.ctx, Load: src.Load, Wakeup: src.Wakeup, Now: w.env.now,
		Notify: watch.Notifier(w.out, w.env.getenv),
		Browse: func(u string) error {
			return browser.New("", io.Discard, io.Discard).Browse(sanitize.Line(u, 2048))
		},
		Copy:     func(s string) error { return copyOSC52(w.out, s) },
		Approval: w.approvalFor(w.cmd, src),
		Markdown: md,
		Prompts:  prompts,
	}, w.styles)
	w.mu.Lock()
	w.consoles = append(w.consoles, m)
	w.mu.Unlock()
	return m
}

// wait lets every wakeup a console started finish: closing the console
// never interrupts an operation in flight.
func (w *watchWiring) wait(errOut io.Writer) {
	w.mu.Lock()
	cs := append([]*watch.Model(nil), w.consoles...)
	w.mu.Unlock()
	for _, c := range cs {
		if c.Busy() {
			fmt.Fprintln(errOut, "waiting for the wakeup in flight to finish; it is never interrupted")
		}
		c.Wait()
	}
}

// copyOSC52 asks the terminal to set the clipboard (OSC 52): it works over
// SSH and needs no clipboard tool. The text is a URL we show; it is
// sanitized and base64-encoded, so it cannot end the sequence.
func copyOSC52(w io.Writer, s string) error {
	_, err := io.WriteString(w, "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(sanitize.Line(s, 2048)))+"\x07")
	return err
}

// watchKey resolves the loop to watch: KEY (key or automation id), a pull
// request number of exactly one loop, or the only loop of the registry.
func watchKey(cmd *cobra.Command, reg *automations.Registry, args []string) (string, error) {
	if len(args) == 1 {
		if n, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64); err == nil && n > 0 {
			return loopOfPR(cmd, reg, n)
		}
		return loopKey(cmd, reg, args[0])
	}
	recs, err := reg.List(cmd.Context())
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	switch len(recs) {
	case 0:
		return "", exitWith(1, "no loop in the registry; start one with 'gh-prloop start'")
	case 1:
		return recs[0].Key, nil
	}
	return "", exitWith(2, "%d loops in the registry: name one (KEY or PR number) or pass --all", len(recs))
}

func loopOfPR(cmd *cobra.Command, reg *automations.Registry, n int64) (string, error) {
	recs, err := reg.List(cmd.Context())
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	var keys []string
	for _, r := range recs {
		if strings.Contains(r.Key, fmt.Sprintf("/pull/%d/run/", n)) {
			keys = append(keys, r.Key)
		}
	}
	switch len(keys) {
	case 0:
		return "", exitWith(1, "no loop in the registry for pull request #%d", n)
	case 1:
		return keys[0], nil
	}
	return "", exitWith(1, "%d loops for pull request #%d: name one by its key:\n  %s", len(keys), n, sanitize.Text(strings.Join(keys, "\n  ")))
}

// initialSize is out's size when it is a terminal, else 80×24.
func initialSize(out io.Writer) (int, int) {
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
			return w, h
		}
	}
	return 80, 24
}

// watchInput is the keyboard: stdin when it is a terminal (or a test's
// reader), else the controlling terminal.
func watchInput(in io.Reader) tea.ProgramOption {
	if f, ok := in.(*os.File); ok && !term.IsTerminal(f.Fd()) {
		return tea.WithInputTTY()
	}
	return tea.WithInput(in)
}
