package watch

import (
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/status"
)

// flight is one wakeup running off the UI goroutine. Progress is a
// mailbox holding only the latest snapshot: the wakeup never blocks on the
// console, so a console that stops reading (it was closed) cannot stall an
// operation in flight.
type flight struct {
	seq    int
	mu     sync.Mutex
	latest *status.Loop
	signal chan struct{} // one pending "latest changed"
	done   chan struct{} // closed with result and err set
	result status.Loop
	err    error
	asks   chan *ask // the console's questions (nil: none are asked)
}

func newFlight(seq int, asks chan *ask) *flight {
	return &flight{seq: seq, signal: make(chan struct{}, 1), done: make(chan struct{}), asks: asks}
}

func (f *flight) progress(l status.Loop) {
	f.mu.Lock()
	f.latest = &l
	f.mu.Unlock()
	select {
	case f.signal <- struct{}{}:
	default:
	}
}

func (f *flight) finish(l status.Loop, err error) {
	f.result, f.err = l, err
	close(f.done)
}

type progressMsg struct {
	f    *flight
	loop status.Loop
}

type wakeupDoneMsg struct {
	f    *flight
	loop status.Loop
	err  error
}

// listen waits for the next thing the flight reports; the end wins over a
// snapshot that arrived with it, since it supersedes it.
func (f *flight) listen() tea.Cmd {
	return func() tea.Msg {
		select {
		case <-f.done:
			return wakeupDoneMsg{f: f, loop: f.result, err: f.err}
		default:
		}
		select {
		case <-f.done:
			return wakeupDoneMsg{f: f, loop: f.result, err: f.err}
		case <-f.signal:
			f.mu.Lock()
			l := *f.latest
			f.mu.Unlock()
			return progressMsg{f: f, loop: l}
		case a := <-f.asks:
			// The executor now waits for the human: the console listens
			// again only once it has answered.
			return askMsg{f: f, a: a}
		}
	}
}
