package execute

import (
	"context"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Options configure Run.
type Options struct {
	Ops   []string
	RunID string
	// Execute runs the executor, handing it the event sink and the stop
	// flag; the list only renders what it emits.
	Execute func(events func(initial.Event), stop func() bool) error
	In      io.Reader
	Out     io.Writer
}

// Run shows the list while Execute runs and returns Execute's error. The
// final screen stays in the terminal's scrollback (no alternate screen).
func Run(ctx context.Context, o Options) error {
	if o.Out == nil {
		o.Out = os.Stdout
	}
	color := theme.ColorEnabled(os.Getenv, theme.IsTTY(o.Out, os.Getenv))
	st := theme.New(theme.NewRenderer(o.Out, color), theme.Default())
	stopped := make(chan struct{})
	var stopOnce bool
	m := New(o.Ops, o.RunID, func() {
		if !stopOnce {
			stopOnce = true
			close(stopped)
		}
	}, time.Now, &st)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(o.Out)}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	p := tea.NewProgram(m, opts...)
	stop := func() bool {
		select {
		case <-stopped:
			return true
		default:
			return false
		}
	}
	go func() {
		err := o.Execute(func(e initial.Event) { p.Send(EventMsg(e)) }, stop)
		p.Send(DoneMsg{Err: err})
	}()
	if _, err := p.Run(); err != nil {
		return err
	}
	return m.Err()
}
