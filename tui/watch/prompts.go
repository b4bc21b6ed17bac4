package watch

import (
	"context"
	"errors"
	"sync"
)

// ErrClosed is what a prompt returns when the console went away before
// the human answered (q, ctrl+c, the terminal closed): nobody said yes or
// no, so the caller must leave the round resumable, not refuse it.
var ErrClosed = errors.New("the console was closed before the question was answered")

// ErrAborted is the hand edit given up (esc): nothing is committed.
var ErrAborted = errors.New("the hand edit was abandoned in the console")

// ErrRefused is the diff declined (n or esc): nothing is committed.
var ErrRefused = errors.New("the diff was refused in the console")

// Prompts are the blocking questions a wakeup in flight asks the human —
// "edit these files, then press enter" and "commit this diff?" — answered
// by the console's Bubble Tea program. A question is handed over on a
// channel the console's flight listens to, and its answer comes back on
// the question's own channel, so the executor's goroutine waits without
// ever touching the model. Close (the console ended) answers every
// question, waiting or still to come, with ErrClosed.
type Prompts struct {
	asks   chan *ask
	closed chan struct{}
	once   sync.Once
}

// NewPrompts returns the prompts of one console.
func NewPrompts() *Prompts {
	return &Prompts{asks: make(chan *ask), closed: make(chan struct{})}
}

type askKind int

const (
	askHandEdit askKind = iota
	askDiff
)

// ask is one question; reply holds its one answer.
type ask struct {
	kind  askKind
	paths []string
	diff  []byte
	reply chan error
}

// askMsg is a question arriving in the console.
type askMsg struct {
	f *flight
	a *ask
}

// HandEdit asks the human to edit paths by hand and returns when they say
// they are done (nil), give up (ErrAborted), or the console goes away
// (ErrClosed) or ctx ends. It is remediate.Job.WaitForHandEdit.
func (p *Prompts) HandEdit(ctx context.Context, paths []string) error {
	return p.ask(ctx, &ask{kind: askHandEdit, paths: append([]string(nil), paths...)})
}

// ConfirmDiff shows diff and returns nil when the human commits it,
// ErrRefused when they decline. It is remediate.Job.ConfirmDiff.
func (p *Prompts) ConfirmDiff(ctx context.Context, diff []byte) error {
	return p.ask(ctx, &ask{kind: askDiff, diff: append([]byte(nil), diff...)})
}

func (p *Prompts) ask(ctx context.Context, a *ask) error {
	a.reply = make(chan error, 1)
	select {
	case p.asks <- a:
	case <-p.closed:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-a.reply:
		return err
	case <-p.closed:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close answers every question with ErrClosed; it is safe to call twice.
func (p *Prompts) Close() { p.once.Do(func() { close(p.closed) }) }

// answer replies once; the reply channel has room for exactly one.
func (a *ask) answer(err error) {
	select {
	case a.reply <- err:
	default:
	}
}

// listenAsks is nil without prompts: a flight then only reports progress.
func (p *Prompts) channel() chan *ask {
	if p == nil {
		return nil
	}
	return p.asks
}
