package approval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// CancelledMessage is printed when the human leaves the console without
// approving: the alternate screen is gone, so say what happened.
const CancelledMessage = "cancelled; nothing was approved"

// Options configure Run.
type Options struct {
	View    View
	Recheck func(ctx context.Context) (RecheckResult, error)
	Record  func(ctx context.Context) (string, error)
	// AddPath: see Config.AddPath; nil offers no "+ add path".
	AddPath func(ctx context.Context, path string) (View, error)
	In      io.Reader // nil: the program's default (stdin)
	Out     io.Writer // nil: os.Stdout
	Err     io.Writer // nil: os.Stderr; where a cancel is confirmed
	// Width and Height are the size drawn at until the terminal reports
	// its own; they matter only when Out is not a terminal (a scripted demo
	// with GH_FORCE_TTY, a test), where no size is ever reported.
	Width, Height int
	// Styles, when nil, are the default theme on Out, with colour only
	// where the gh CLI would use it (theme.ColorEnabled).
	Styles *theme.Styles
}

// Run shows the console on the alternate screen until it ends, then writes
// to Out what must outlive the screen: the approval statement, or the
// drift's changed fields. A failure is returned as the error (with outcome
// Failed) for the command to print; map the outcome to the exit status
// with Outcome.ExitCode.
func Run(ctx context.Context, o Options) (Outcome, error) {
	if o.Recheck == nil || o.Record == nil {
		return Failed, errors.New("approval: Recheck and Record are required")
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	if o.Err == nil {
		o.Err = os.Stderr
	}
	st := o.Styles
	if st == nil {
		color := theme.ColorEnabled(os.Getenv, theme.IsTTY(o.Out, os.Getenv))
		s := theme.New(theme.NewRenderer(o.Out, color), theme.Default())
		st = &s
	}
	m := New(Config{View: o.View, Recheck: o.Recheck, Record: o.Record, AddPath: o.AddPath, Context: ctx}, st)
	m.SetSize(o.Width, o.Height)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(o.Out), tea.WithAltScreen()}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		m.release()
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			fmt.Fprintln(o.Err, CancelledMessage)
			return Cancelled, ctx.Err()
		}
		return Failed, fmt.Errorf("approval console: %w", err)
	}
	r := m.Result()
	switch r.Outcome {
	case Approved:
		fmt.Fprintln(o.Out, sanitize.Line(r.Statement, 4096))
	case Drift:
		fmt.Fprint(o.Out, DriftSummary(m.PlanHash(), r))
	case Cancelled:
		fmt.Fprintln(o.Err, CancelledMessage)
	case Failed:
		return Failed, r.Err
	}
	return r.Outcome, nil
}
