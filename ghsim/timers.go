package ghsim

import (
	"cmp"
	"slices"
	"time"
)

// timer is a change the world makes by itself at a simulated time (a
// check run finishing, mergeability computed): GitHub's background work,
// replayed in order whenever the simulator is next looked at.
type timer struct {
	at  time.Time
	seq uint64
	run func(s *Server, at time.Time)
}

// scheduleLocked runs f at simulated time at, stamped with that time.
func (s *Server) scheduleLocked(at time.Time, f func(s *Server, at time.Time)) {
	s.timerSeq++
	s.timers = append(s.timers, timer{at: at, seq: s.timerSeq, run: f})
}

// advanceTimersLocked runs every timer that is due, oldest first (ties in
// scheduling order), and returns how many ran. A timer may schedule more.
func (s *Server) advanceTimersLocked(now time.Time) int {
	n := 0
	for {
		slices.SortStableFunc(s.timers, func(a, b timer) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		if len(s.timers) == 0 || s.timers[0].at.After(now) {
			return n
		}
		t := s.timers[0]
		s.timers = s.timers[1:]
		t.run(s, t.at)
		n++
	}
}

// advanceWorldLocked brings everything that happens by itself up to now:
// the Codex bot's steps and the timers.
func (s *Server) advanceWorldLocked(now time.Time) {
	s.advanceCodexLocked(now)
	s.advanceTimersLocked(now)
}

// PendingTimers is the number of scheduled background changes not yet due.
func (s *Server) PendingTimers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.timers)
}
