package ghsim

import (
	"fmt"
	"sync"
	"time"
)

// ScaledClock is simulated time that runs Scale times faster than the real
// clock from a starting point, so that a review loop whose deadlines and
// bot delays are minutes long runs in seconds (`gh-prloop sim
// --time-scale`). Scale 1 is the real clock's pace.
type ScaledClock struct {
	mu        sync.Mutex
	realStart time.Time
	simStart  time.Time
	scale     float64
	real      func() time.Time
}

// NewScaledClock starts simulated time at start, advancing scale simulated
// seconds per real second; real is the wall clock (nil: time.Now).
func NewScaledClock(start time.Time, scale float64, real func() time.Time) (*ScaledClock, error) {
	if !(scale > 0) || scale > MaxTimeScale {
		return nil, fmt.Errorf("time scale %v: want a number in (0, %d]", scale, MaxTimeScale)
	}
	if real == nil {
		real = time.Now
	}
	return &ScaledClock{realStart: real(), simStart: start.UTC(), scale: scale, real: real}, nil
}

// MaxTimeScale bounds the speed-up: past it, one real millisecond is more
// than a simulated second and timestamps (whole seconds) stop ordering
// the steps a client observes between two requests.
const MaxTimeScale = 3600

// Now is the current simulated time. Pass it as Options.Clock.
func (c *ScaledClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	elapsed := c.real().Sub(c.realStart)
	return c.simStart.Add(time.Duration(float64(elapsed) * c.scale))
}

// Scale is simulated seconds per real second.
func (c *ScaledClock) Scale() float64 { return c.scale }

// RealDuration is how long simulated duration d takes on the wall clock.
func (c *ScaledClock) RealDuration(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.scale)
}
