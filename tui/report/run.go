package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
	"github.com/cli/go-gh/v2/pkg/browser"
	"github.com/muesli/termenv"

	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Options configure Run.
type Options struct {
	Fetch    Fetch         // required
	Interval time.Duration // watch period; <= 0 means DefaultInterval
	Watch    bool          // refresh every Interval until quit or cancelled
	Out      io.Writer     // nil means os.Stdout
	In       io.Reader     // nil means the terminal (stdin, or /dev/tty when stdin is a pipe)
	// Plain forces plain text even on a terminal. Plain text is also used,
	// whatever this says, when Out is not a terminal.
	Plain  bool
	Getenv func(string) string // nil means os.Getenv; read for NO_COLOR, CLICOLOR, CLICOLOR_FORCE, GH_FORCE_TTY

	// Repository and Number name the pull request asked for, shown while
	// the first fetch runs. Simulated marks data from the GitHub simulator.
	Repository string
	Number     int64
	Simulated  bool
	// Status receives the GitHub client's notices (retries, waits); while
	// the console runs they go to its status line, never over the screen.
	Status *Status
}

// Run shows the report for one pull request.
//
// On a terminal it runs the interactive console (alternate screen) until
// the user quits; a fetch error is shown in the status line while the last
// good report stays on screen, and Run returns nil — unless no fetch ever
// succeeded, in which case it returns the last fetch error. NO_COLOR / CLICOLOR=0
// remove colour, not interactivity.
//
// Otherwise (or with Plain) it prints Plain(view) once and returns the
// fetch error, if any. With Watch it then keeps fetching every Interval and
// prints the report again whenever it changed (a failed fetch prints one
// "refresh failed" line) until ctx is cancelled, and returns ctx.Err().
func Run(ctx context.Context, o Options) error {
	if o.Fetch == nil {
		return errors.New("report: Options.Fetch is nil")
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	tty := theme.IsTTY(o.Out, o.Getenv)
	if o.Plain || !tty {
		return runPlain(ctx, o)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops a fetch still running when the user quits
	st := theme.New(theme.NewRenderer(o.Out, theme.ColorEnabled(o.Getenv, tty)), theme.Default())
	model := New(ctx, o.Fetch, o.Interval, o.Watch, &st)
	model.SetTarget(o.Repository, o.Number, o.Simulated)
	model.SetActions(
		func(url string) error { return browser.New("", io.Discard, io.Discard).Browse(url) },
		func(url string) error { termenv.NewOutput(o.Out).Copy(url); return nil },
	)
	root := app.New(model, &st)
	p := tea.NewProgram(root, tea.WithContext(ctx), tea.WithOutput(o.Out), input(o.In), tea.WithAltScreen())
	o.Status.attach(p.Send)
	_, err := p.Run()
	o.Status.detach() // what the status line said is printed once the screen is gone
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	// A console that never showed a report failed, as gh would: the caller
	// exits non-zero with the reason instead of pretending all went well.
	if !model.loaded && model.lastErr != nil {
		return model.lastErr
	}
	return nil
}

// input is the keyboard: In when given, else stdin when it is a terminal,
// else the controlling terminal itself (stdin may be a pipe, as in
// `… | gh prloop report`, while the console is still on a terminal).
func input(in io.Reader) tea.ProgramOption {
	if in != nil {
		return tea.WithInput(in)
	}
	if term.IsTerminal(os.Stdin.Fd()) {
		return tea.WithInput(os.Stdin)
	}
	return tea.WithInputTTY()
}

func runPlain(ctx context.Context, o Options) error {
	fetch := func() (View, error) {
		v, err := o.Fetch(ctx)
		v.Simulated = o.Simulated
		if o.Watch {
			v.Watch, v.NextRefresh = true, "every "+o.Interval.String()
		}
		return v, err
	}
	v, err := fetch()
	if err != nil {
		return err
	}
	last := Plain(v)
	lastKey := Plain(unchangedKey(v))
	if _, err := io.WriteString(o.Out, last); err != nil {
		return err
	}
	if !o.Watch {
		return nil
	}
	t := time.NewTicker(o.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		v, err := fetch()
		var out string
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out = "refresh failed: " + sanitize.Line(err.Error(), plainText) + "\n"
		case Plain(unchangedKey(v)) != lastKey:
			last, lastKey = Plain(v), Plain(unchangedKey(v))
			out = "\n" + last
		}
		if out == "" {
			continue
		}
		if _, err := io.WriteString(o.Out, out); err != nil {
			return fmt.Errorf("report: writing: %w", err)
		}
	}
}

// unchangedKey drops what changes on every refresh (the observation time and
// its cost), so plain --watch prints again only when the pull request did.
func unchangedKey(v View) View {
	v.ObservedAt, v.Cost = "", ""
	return v
}
