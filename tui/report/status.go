package report

import (
	"fmt"
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Status carries messages from outside the console — the GitHub client's
// retries and rate-limit waits — to where they can be read without
// breaking the screen: while the console runs, to its status line (and
// kept); once it has ended, to the writer (stderr), each on its own line.
// Without a running console a message goes to the writer at once. A nil
// *Status drops everything. It is safe for concurrent use.
type Status struct {
	mu   sync.Mutex
	w    io.Writer
	send func(tea.Msg) // the running console's Send; nil when none runs
	kept []string      // shown on the status line, printed after the console ends
}

// statusMsg is one message for the status line.
type statusMsg struct{ text string }

// NewStatus returns a Status that writes to w when no console runs.
func NewStatus(w io.Writer) *Status { return &Status{w: w} }

// Notify reports msg (untrusted: it may quote a server's error).
func (s *Status) Notify(msg string) {
	if s == nil {
		return
	}
	msg = sanitize.Line(msg, 400)
	s.mu.Lock()
	send := s.send
	if send == nil {
		fmt.Fprintln(s.w, "gh-prloop:", msg)
		s.mu.Unlock()
		return
	}
	s.kept = append(s.kept, msg)
	s.mu.Unlock()
	// Send blocks until the event loop takes the message (or the program
	// has ended); the lock is not held meanwhile. A message kept here is
	// printed by detach even if the console ends before showing it.
	send(statusMsg{text: msg})
}

// attach routes messages to a running console.
func (s *Status) attach(send func(tea.Msg)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.send = send
	s.mu.Unlock()
}

// detach ends the console's routing and prints what it was shown, so that
// nothing said during the console is lost with the alternate screen.
func (s *Status) detach() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.send = nil
	for _, m := range s.kept {
		fmt.Fprintln(s.w, "gh-prloop:", m)
	}
	s.kept = nil
}

// Close is detach for the caller's defer: anything still kept is printed.
func (s *Status) Close() { s.detach() }
