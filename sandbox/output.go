package sandbox

import (
	"io"
	"sync"
)

// tailBuffer keeps the last limit bytes written — a ring, so a chatty
// command costs no copying beyond its own bytes — and copies everything to
// an optional live writer, whose failure does not stop the capture.
type tailBuffer struct {
	mu        sync.Mutex
	limit     int
	buf       []byte // grows to limit, then is a ring starting at start
	start     int
	truncated bool
	live      io.Writer
}

func newTailBuffer(limit int64, live io.Writer) *tailBuffer {
	return &tailBuffer{limit: int(limit), live: live}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live != nil {
		if _, err := t.live.Write(p); err != nil {
			t.live = nil
		}
	}
	n := len(p)
	switch {
	case len(p) >= t.limit:
		t.truncated = t.truncated || len(t.buf) > 0 || len(p) > t.limit
		t.buf = append(t.buf[:0], p[len(p)-t.limit:]...)
		t.start = 0
	case len(t.buf)+len(p) <= t.limit:
		t.buf = append(t.buf, p...)
	default:
		if room := t.limit - len(t.buf); room > 0 {
			t.buf = append(t.buf, p[:room]...)
			p = p[room:]
		}
		for len(p) > 0 {
			c := copy(t.buf[t.start:], p)
			p = p[c:]
			t.start = (t.start + c) % t.limit
		}
		t.truncated = true
	}
	return n, nil
}

// result returns the kept bytes in order and whether any were dropped.
func (t *tailBuffer) result() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.start:]...)
	out = append(out, t.buf[:t.start]...)
	return out, t.truncated
}
