package ghsim

import (
	"fmt"
	"net/http"
	"path"
	"strconv"
	"time"
)

// FaultKind is what an injected fault does to a matching request.
type FaultKind int

const (
	// FaultStatus answers with Status (default 502) and a GitHub-style body.
	FaultStatus FaultKind = iota + 1
	// FaultDelay holds the request for Delay, then answers it normally, so a
	// client with a shorter timeout gives up first.
	FaultDelay
	// FaultDrop hijacks the connection and closes it without an answer.
	FaultDrop
	// FaultSecondaryLimit answers 403 with Retry-After and GitHub's
	// secondary-rate-limit message (X-RateLimit-Remaining is NOT zero).
	FaultSecondaryLimit
	// FaultPrimaryLimit answers Status (403 default, or 429) with
	// X-RateLimit-Remaining: 0 and the window's X-RateLimit-Reset.
	FaultPrimaryLimit
	// FaultGraphQLPage makes the Page-th page of the Connection field fail
	// with GitHub's INTERNAL error while the rest of the query succeeds.
	FaultGraphQLPage
	// FaultStatusAfter serves the request normally — a write takes effect —
	// then discards the answer and responds with Status (default 502): the
	// client cannot tell whether GitHub acted ("delivery unknown").
	FaultStatusAfter
	// FaultDropAfter serves the request normally, then closes the
	// connection without an answer, as a timeout after delivery looks.
	FaultDropAfter
	// FaultGraphQLError answers a GraphQL request 200 with no data and one
	// error of Type (default INTERNAL) saying Message: GitHub's form of a
	// whole query that failed.
	FaultGraphQLError
)

// Match selects the requests a fault applies to. Zero fields match all.
type Match struct {
	Kind   RequestKind // KindREST or KindGraphQL
	Method string      // e.g. "GET"
	// Path is a path.Match pattern over the request path without the
	// /api/v3 prefix, e.g. "/repos/*/*/pulls/*/reviews" or "/graphql".
	Path string
}

// Fault is one injected failure.
type Fault struct {
	Kind  FaultKind
	Match Match
	// Times is how many matching requests it affects: 0 means 1, negative
	// means until ClearFaults or cancel.
	Times      int
	Status     int
	Delay      time.Duration
	RetryAfter time.Duration // FaultSecondaryLimit; default 60s
	Body       string        // FaultStatus: raw body instead of GitHub's JSON
	Connection string        // FaultGraphQLPage: connection field name ("reviewThreads"); "" any
	Page       int           // FaultGraphQLPage: 1-based page number; default 2
	// Message replaces the error message GitHub would send (FaultStatus,
	// the rate limits, FaultGraphQLPage, FaultGraphQLError): a hostile or
	// broken server's text, for tests of what reaches the terminal.
	Message string
	// Type is the GraphQL error type of FaultGraphQLError; default INTERNAL.
	Type string
	// Header is set on the answer last, over GitHub's own headers (e.g. a
	// hostile X-RateLimit-Resource).
	Header map[string]string
}

type faultState struct {
	f    Fault
	left int // <0: unlimited
}

// InjectFault adds a fault; the returned func removes it early.
func (s *Server) InjectFault(f Fault) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := f.Times
	if left == 0 {
		left = 1
	}
	if f.Kind == FaultGraphQLPage && f.Page == 0 {
		f.Page = 2
	}
	fs := &faultState{f: f, left: left}
	s.faults = append(s.faults, fs)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.removeFaultLocked(fs)
	}
}

// ClearFaults removes every pending fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// PendingFaults is the number of faults that can still fire.
func (s *Server) PendingFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.faults)
}

func (s *Server) removeFaultLocked(fs *faultState) {
	for i, x := range s.faults {
		if x == fs {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
			return
		}
	}
}

func (s *Server) spendFaultLocked(fs *faultState) {
	if fs.left > 0 {
		fs.left--
		if fs.left == 0 {
			s.removeFaultLocked(fs)
		}
	}
}

func (m Match) matches(method, p string, kind RequestKind) bool {
	if m.Kind != "" && m.Kind != kind {
		return false
	}
	if m.Method != "" && m.Method != method {
		return false
	}
	if m.Path != "" {
		ok, err := path.Match(m.Path, p)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// takeFaultLocked picks the first request-level fault matching the request.
func (s *Server) takeFaultLocked(method, p string, kind RequestKind) *Fault {
	for _, fs := range s.faults {
		if fs.f.Kind == FaultGraphQLPage || !fs.f.Match.matches(method, p, kind) {
			continue
		}
		f := fs.f
		s.spendFaultLocked(fs)
		s.stats.Faults++
		return &f
	}
	return nil
}

// pageFaultLocked is consulted by the GraphQL paginator.
func (s *Server) pageFaultLocked(reqID, connection string, page int) error {
	for _, fs := range s.faults {
		f := fs.f
		if f.Kind != FaultGraphQLPage || f.Page != page || (f.Connection != "" && f.Connection != connection) {
			continue
		}
		s.spendFaultLocked(fs)
		s.stats.Faults++
		if f.Message != "" {
			return errorf("INTERNAL", "%s", f.Message)
		}
		return errorf("INTERNAL", "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `%s` when reporting this issue.", reqID)
	}
	return nil
}

// applyFault acts out a request-level fault. It reports whether the request
// is finished (false: a delay passed and the request proceeds normally).
func (s *Server) applyFault(c *call, f *Fault) bool {
	switch f.Kind {
	case FaultDelay:
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
			return false
		case <-c.r.Context().Done():
			return true
		case <-s.done:
			return true
		}
	case FaultDrop:
		if hj, ok := c.w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
		// Without a hijackable connection, net/http's abort sentinel
		// closes it just the same.
		panic(http.ErrAbortHandler)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := c.w.Header()
	commonHeaders(h)
	resource := ResourceCore
	if c.kind == KindGraphQL {
		resource = ResourceGraphQL
	}
	switch f.Kind {
	case FaultSecondaryLimit:
		retry := f.RetryAfter
		if retry <= 0 {
			retry = 60 * time.Second
		}
		s.rateHeadersLocked(h, resource)
		h.Set("Retry-After", strconv.Itoa(int(retry/time.Second)))
		doc := "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
		if resource == ResourceGraphQL {
			doc = "https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#secondary-rate-limits"
		}
		msg := "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. " +
			"If you reach out to GitHub Support for help, please include the request ID " + c.reqID + "."
		if f.Message != "" {
			msg = f.Message
		}
		setHeaders(h, f.Header)
		writeBody(c.w, http.StatusForbidden, errorBody(http.StatusForbidden, msg, doc))
	case FaultPrimaryLimit:
		status := f.Status
		if status == 0 {
			status = http.StatusForbidden
		}
		s.sendPrimaryLimitLocked(c, resource, status, f.Message, f.Header)
	case FaultGraphQLError:
		typ := f.Type
		if typ == "" {
			typ = "INTERNAL"
		}
		msg := f.Message
		if msg == "" {
			msg = "Something went wrong while executing your query. Please include `" + c.reqID + "` when reporting this issue."
		}
		s.rateHeadersLocked(h, resource)
		setHeaders(h, f.Header)
		writeBody(c.w, http.StatusOK, map[string]any{
			"data":   nil,
			"errors": []any{map[string]any{"type": typ, "message": msg}},
		})
	default:
		status := f.Status
		if status == 0 {
			status = http.StatusBadGateway
		}
		s.rateHeadersLocked(h, resource)
		setHeaders(h, f.Header)
		if f.Body != "" {
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Content-Length", strconv.Itoa(len(f.Body)))
			c.w.WriteHeader(status)
			_, _ = c.w.Write([]byte(f.Body))
			return true
		}
		msg := statusMessage(status)
		if f.Message != "" {
			msg = f.Message
		}
		writeBody(c.w, status, map[string]any{"message": msg})
	}
	return true
}

// setHeaders writes a fault's own headers over the ones GitHub would send.
func setHeaders(h http.Header, extra map[string]string) {
	for k, v := range extra {
		h.Set(k, v)
	}
}

func statusMessage(status int) string {
	switch status {
	case http.StatusInternalServerError:
		return "Server Error"
	case http.StatusServiceUnavailable:
		return "Service Unavailable"
	case http.StatusBadGateway:
		return "Bad Gateway"
	}
	return fmt.Sprintf("HTTP %d", status)
}
