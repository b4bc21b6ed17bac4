package ghclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimitError means GitHub asked for a wait longer than Options.MaxWait.
type RateLimitError struct {
	Resource  string // "core", "graphql", ...
	Secondary bool   // a secondary (abuse) limit rather than the hourly budget
	Wait      time.Duration
}

func (e *RateLimitError) Error() string {
	kind := "primary"
	if e.Secondary {
		kind = "secondary"
	}
	return fmt.Sprintf("GitHub %s rate limit (%s): the required wait of %s exceeds the allowed maximum", kind, e.Resource, e.Wait.Round(time.Second))
}

// limitState remembers, per resource, a budget GitHub reported as spent, so
// that the next request waits for the reset instead of being refused.
type limitState struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func newLimitState() *limitState { return &limitState{until: map[string]time.Time{}} }

func (s *limitState) update(resource string, h http.Header) {
	if h.Get("X-RateLimit-Remaining") == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	reset, ok := resetTime(h)
	if h.Get("X-RateLimit-Remaining") == "0" && ok {
		s.until[resource] = reset
		return
	}
	delete(s.until, resource)
}

func (s *limitState) blockedUntil(resource string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.until[resource]
}

func resetTime(h http.Header) (time.Time, bool) {
	sec, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || sec <= 0 {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// limitHit is GitHub's refusal of one request for rate reasons. GitHub
// refuses before doing any work, so even a write may be sent again.
type limitHit struct {
	secondary bool
	wait      time.Duration
}

// secondaryFloor is GitHub's documented minimum pause for a secondary limit
// that names no Retry-After.
const secondaryFloor = time.Minute

// rateLimited recognises every documented form: Retry-After (secondary),
// X-RateLimit-Remaining: 0 with a reset (primary), the secondary-limit
// message, a bare 429, and GraphQL's RATE_LIMITED error inside a 200.
func rateLimited(resp *http.Response, body []byte, resource string, now time.Time, backoff time.Duration) (limitHit, bool) {
	limitStatus := resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests
	graphQLLimited := resource == "graphql" && resp.StatusCode == http.StatusOK && graphQLRateLimited(body)
	if !limitStatus && !graphQLLimited {
		return limitHit{}, false
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" && limitStatus {
		if d, ok := parseRetryAfter(ra, now); ok {
			return limitHit{secondary: true, wait: d}, true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, ok := resetTime(resp.Header); ok {
			// One extra second: X-RateLimit-Reset has second precision.
			return limitHit{wait: max(reset.Sub(now)+time.Second, 0)}, true
		}
	}
	if graphQLLimited {
		return limitHit{wait: max(backoff, secondaryFloor)}, true
	}
	if resp.StatusCode == http.StatusTooManyRequests || bytes.Contains(bytes.ToLower(body), []byte("secondary rate limit")) {
		return limitHit{secondary: true, wait: max(backoff, secondaryFloor)}, true
	}
	return limitHit{}, false
}

func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if sec, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && sec >= 0 {
		return time.Duration(sec) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func graphQLRateLimited(body []byte) bool {
	if !bytes.Contains(body, []byte("RATE_LIMITED")) {
		return false
	}
	var r struct {
		Errors []struct {
			Type string `json:"type"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &r) != nil {
		return false
	}
	for _, e := range r.Errors {
		if e.Type == "RATE_LIMITED" {
			return true
		}
	}
	return false
}
