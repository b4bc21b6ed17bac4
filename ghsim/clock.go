package ghsim

import (
	"sync"
	"time"
)

// ManualClock is a clock that only moves when told to, so that tests can
// step the simulated Codex bot and rate-limit windows deterministically.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock stopped at start (truncated to seconds,
// because GitHub timestamps have second precision).
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start.UTC().Truncate(time.Second)}
}

// Now returns the current simulated time. Pass it as Options.Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC()
}
