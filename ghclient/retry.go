package ghclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Retry rule. GitHub may have acted on a request whose response we did not
// get, so only requests that change nothing are repeated after an ambiguous
// failure: GET/HEAD and GraphQL queries (marked with asQuery). Any request,
// writes included, is repeated only when GitHub provably did not act on it:
// the connection was never established (dial failure), or GitHub refused it
// for rate reasons. A write that fails any other way (5xx, timeout, dropped
// connection after sending) returns *DeliveryUnknownError and is never
// repeated here; the caller must re-observe to learn whether it happened.

// DeliveryUnknownError is a write whose outcome is unknown: it may or may
// not have been applied by GitHub.
type DeliveryUnknownError struct {
	Method string
	URL    string // scheme, host and path; never credentials
	Status int    // HTTP status when a response arrived, else 0
	Err    error
}

func (e *DeliveryUnknownError) Error() string {
	what := "no response"
	if e.Status != 0 {
		what = fmt.Sprintf("HTTP %d", e.Status)
	}
	if e.Err != nil {
		what += ": " + e.Err.Error()
	}
	return fmt.Sprintf("%s %s: %s; the write may or may not have been applied and was not retried", e.Method, e.URL, what)
}

func (e *DeliveryUnknownError) Unwrap() error { return e.Err }

// GiveUpError is an idempotent request that kept failing.
type GiveUpError struct {
	Attempts int
	Last     string // last status or transport error
	Err      error
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("gave up after %d attempts: %s", e.Attempts, e.Last)
}

func (e *GiveUpError) Unwrap() error { return e.Err }

var errTooLarge = errors.New("GitHub response larger than the allowed maximum")

type queryKey struct{}

// asQuery marks a POST as a read (a GraphQL query), so it may be retried.
func asQuery(ctx context.Context) context.Context { return context.WithValue(ctx, queryKey{}, true) }

func idempotent(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	q, _ := req.Context().Value(queryKey{}).(bool)
	return q
}

type retryPolicy struct {
	maxAttempts    int
	baseBackoff    time.Duration
	maxBackoff     time.Duration
	maxWait        time.Duration
	attemptTimeout time.Duration
	maxBody        int64
	sleep          func(context.Context, time.Duration) error
	now            func() time.Time
	onWait         func(reason string, d time.Duration)
}

type retryTransport struct {
	p      retryPolicy
	limits *limitState
	next   http.RoundTripper
}

func (t *retryTransport) backoff(attempt int) time.Duration {
	d := t.p.baseBackoff
	for i := 1; i < attempt && d < t.p.maxBackoff; i++ {
		d *= 2
	}
	return min(d, t.p.maxBackoff)
}

// maxReasonCells bounds a wait reason: it can quote a server's error
// message, which is GitHub's to make as long as it likes.
const maxReasonCells = 240

// wait announces and takes a deliberate pause. The reason can quote the
// server (X-RateLimit-Resource, an error message), so it is sanitized to one
// inert line here, before any caller can print it; it never says how long
// the wait is, since the caller is handed d and says so itself.
func (t *retryTransport) wait(ctx context.Context, reason string, d time.Duration) error {
	if t.p.onWait != nil {
		t.p.onWait(sanitize.Line(reason, maxReasonCells), d)
	}
	return t.p.sleep(ctx, d)
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	safe := idempotent(req)
	resource := resourceOf(req, nil)
	where := req.URL.Scheme + "://" + req.URL.Host + req.URL.Path
	for attempt := 1; ; attempt++ {
		if err := t.awaitReset(ctx, resource); err != nil {
			return nil, err
		}
		resp, body, err := t.attempt(req, attempt)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		last := attempt >= t.p.maxAttempts
		if err != nil {
			if errors.Is(err, errTooLarge) {
				return nil, err
			}
			if !safe && !notSent(err) {
				return nil, &DeliveryUnknownError{Method: req.Method, URL: where, Err: err}
			}
			if last {
				return nil, &GiveUpError{Attempts: attempt, Last: err.Error(), Err: err}
			}
			d := t.backoff(attempt)
			if err := t.wait(ctx, fmt.Sprintf("GitHub request failed (%v); retry %d of %d", err, attempt+1, t.p.maxAttempts), d); err != nil {
				return nil, err
			}
			continue
		}
		t.limits.update(resourceOf(req, resp), resp.Header)
		if hit, ok := rateLimited(resp, body, resourceOf(req, resp), t.p.now(), t.backoff(attempt)); ok {
			if hit.wait > t.p.maxWait {
				return nil, &RateLimitError{Resource: resourceOf(req, resp), Secondary: hit.secondary, Wait: hit.wait}
			}
			if last {
				return nil, &GiveUpError{Attempts: attempt, Last: fmt.Sprintf("rate limited (HTTP %d)", resp.StatusCode)}
			}
			reason := fmt.Sprintf("GitHub %s rate limit reached", resourceOf(req, resp))
			if hit.secondary {
				reason = "GitHub secondary rate limit"
			}
			if err := t.wait(ctx, reason, hit.wait); err != nil {
				return nil, err
			}
			continue
		}
		if resp.StatusCode >= 500 {
			if !safe {
				return nil, &DeliveryUnknownError{Method: req.Method, URL: where, Status: resp.StatusCode}
			}
			if last {
				return nil, &GiveUpError{Attempts: attempt, Last: fmt.Sprintf("HTTP %d from %s", resp.StatusCode, where)}
			}
			d := t.backoff(attempt)
			if err := t.wait(ctx, fmt.Sprintf("HTTP %d from GitHub; retry %d of %d", resp.StatusCode, attempt+1, t.p.maxAttempts), d); err != nil {
				return nil, err
			}
			continue
		}
		return resp, nil
	}
}

// awaitReset holds a request while GitHub has said the budget is spent.
func (t *retryTransport) awaitReset(ctx context.Context, resource string) error {
	until := t.limits.blockedUntil(resource)
	if until.IsZero() {
		return nil
	}
	d := until.Sub(t.p.now()) + time.Second
	if d <= 0 {
		return nil
	}
	if d > t.p.maxWait {
		return &RateLimitError{Resource: resource, Wait: d}
	}
	reason := fmt.Sprintf("GitHub %s rate limit exhausted until %s", resource, until.UTC().Format("15:04:05 UTC"))
	return t.wait(ctx, reason, d)
}

// attempt sends one copy of req and reads the whole body under the attempt
// timeout, so that a connection dropped mid-body is a failed attempt too.
func (t *retryTransport) attempt(req *http.Request, n int) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.p.attemptTimeout)
	defer cancel()
	r := req.Clone(ctx)
	if req.Body != nil && req.Body != http.NoBody {
		switch {
		case req.GetBody != nil:
			b, err := req.GetBody()
			if err != nil {
				return nil, nil, err
			}
			r.Body = b
		case n > 1:
			return nil, nil, errors.New("request body cannot be replayed")
		}
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, t.p.maxBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading response: %w", err)
	}
	if int64(len(body)) > t.p.maxBody {
		return nil, nil, fmt.Errorf("%w (%d bytes)", errTooLarge, t.p.maxBody)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, body, nil
}

// notSent reports failures that happen before any byte of the request
// leaves: the connection was never made.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
