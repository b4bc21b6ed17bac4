package ghclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient/loopback"
)

// testToken is distinctive so that a leak is easy to grep for.
const testToken = "ghp_TESTTOKENdoNotLeak0123456789abcdefXYZ"

// fakeClock makes sleeps instant and observable.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
	waits  []string
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.t = c.t.Add(d)
	return ctx.Err()
}

func (c *fakeClock) onWait(reason string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, reason)
}

func (c *fakeClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// isolateGH keeps the developer's gh configuration and tokens out of tests.
func isolateGH(t *testing.T) {
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_HOST", "GH_DEBUG"} {
		t.Setenv(k, "")
	}
	t.Setenv("GH_PATH", "/nonexistent/gh")
}

// newTestClient serves h on loopback and returns a client for github.com
// routed to it, with a fake clock.
func newTestClient(t *testing.T, h http.Handler, mod func(*Options)) (*Client, *fakeClock) {
	t.Helper()
	isolateGH(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	lb, err := loopback.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock()
	opts := Options{
		Host: "github.com", Token: testToken, BaseTransport: lb,
		Sleep: clock.sleep, Now: clock.now, OnWait: clock.onWait,
		AttemptTimeout: 5 * time.Second,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, clock
}

func httptestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
