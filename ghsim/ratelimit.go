package ghsim

import (
	"net/http"
	"strconv"
	"time"
)

// Rate-limit resources as GitHub names them in X-RateLimit-Resource.
const (
	ResourceCore    = "core"
	ResourceGraphQL = "graphql"
)

// RateStatus is one resource's primary rate-limit window.
type RateStatus struct {
	Limit     int
	Remaining int
	Used      int
	Reset     time.Time
}

type rateBucket struct {
	limit int
	used  int
	reset time.Time
}

// bucketLocked returns the resource's window, opening a fresh hour when the
// previous one has passed (GitHub's windows start at the first request).
func (s *Server) bucketLocked(resource string, now time.Time) *rateBucket {
	b := s.rate[resource]
	if b.reset.IsZero() || !now.Before(b.reset) {
		b.used = 0
		b.reset = now.Add(time.Hour)
	}
	return b
}

func (b *rateBucket) remaining() int {
	if b.used >= b.limit {
		return 0
	}
	return b.limit - b.used
}

func (s *Server) rateHeadersLocked(h http.Header, resource string) {
	b := s.bucketLocked(resource, s.now())
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(b.remaining()))
	h.Set("X-RateLimit-Used", strconv.Itoa(b.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(b.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", resource)
}

// RateLimit reports a resource's current window (ResourceCore or ResourceGraphQL).
func (s *Server) RateLimit(resource string) RateStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bucketLocked(resource, s.now())
	return RateStatus{Limit: b.limit, Remaining: b.remaining(), Used: b.used, Reset: b.reset}
}

// SetRateRemaining forces a resource's remaining points, e.g. 0 to exhaust
// the primary limit until the window resets (the clock passes Reset).
func (s *Server) SetRateRemaining(resource string, remaining int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bucketLocked(resource, s.now())
	if remaining < 0 {
		remaining = 0
	}
	if remaining > b.limit {
		remaining = b.limit
	}
	b.used = b.limit - remaining
}

// rateExhaustedLocked answers with GitHub's primary-limit error when the
// resource has no points left. It reports whether it answered.
func (s *Server) rateExhaustedLocked(c *call, resource string) bool {
	b := s.bucketLocked(resource, s.now())
	if b.remaining() > 0 {
		return false
	}
	s.sendPrimaryLimitLocked(c, resource, http.StatusForbidden, "", nil)
	return true
}

func (s *Server) sendPrimaryLimitLocked(c *call, resource string, status int, message string, extra map[string]string) {
	s.stats.RateLimited++
	h := c.w.Header()
	commonHeaders(h)
	b := s.bucketLocked(resource, s.now())
	s.rateHeadersLocked(h, resource)
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Used", strconv.Itoa(b.limit))
	msg := "API rate limit exceeded for user ID " + strconv.FormatInt(s.viewer, 10) +
		". If you reach out to GitHub Support for help, please include the request ID " + c.reqID +
		" and timestamp " + s.now().Format("2006-01-02 15:04:05") + " UTC."
	doc := "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
	if resource == ResourceGraphQL {
		doc = "https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api"
	}
	if message != "" {
		msg = message
	}
	setHeaders(h, extra)
	writeBody(c.w, status, errorBody(status, msg, doc))
}
