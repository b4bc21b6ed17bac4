package ghclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient/loopback"
)

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

const userJSON = `{"login":"me","id":42,"type":"User"}`

// scripted answers request n (1-based) with step(n).
func scripted(hits *atomic.Int32, step func(w http.ResponseWriter, r *http.Request, n int)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		step(w, r, int(hits.Add(1)))
	})
}

func TestRetries5xxWithBoundedExponentialBackoff(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n <= 3 {
			writeJSON(w, http.StatusBadGateway, `{"message":"Server Error"}`)
			return
		}
		writeJSON(w, 200, userJSON)
	})
	c, clock := newTestClient(t, h, func(o *Options) { o.MaxAttempts = 4; o.BaseBackoff = time.Second; o.MaxBackoff = 3 * time.Second })
	login, id, err := c.Viewer(context.Background())
	if err != nil || login != "me" || id != 42 {
		t.Fatalf("Viewer = %q %d %v", login, id, err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}
	if got := clock.slept(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("backoffs %v, want %v", got, want)
	}
	if len(clock.waits) != 3 || !strings.Contains(clock.waits[0], "HTTP 502") {
		t.Fatalf("OnWait calls %q", clock.waits)
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 503, `{}`) })
	c, clock := newTestClient(t, h, func(o *Options) { o.MaxAttempts = 3 })
	_, _, err := c.Viewer(context.Background())
	var g *GiveUpError
	if !errors.As(err, &g) || g.Attempts != 3 || hits.Load() != 3 || len(clock.slept()) != 2 {
		t.Fatalf("err %v, hits %d, sleeps %v", err, hits.Load(), clock.slept())
	}
}

func TestRetriesAnAttemptThatTimesOut(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		writeJSON(w, 200, userJSON)
	})
	// Long enough for the second, ordinary attempt under -race on a loaded CI machine.
	c, _ := newTestClient(t, h, func(o *Options) { o.AttemptTimeout = time.Second })
	if _, _, err := c.Viewer(context.Background()); err != nil || hits.Load() != 2 {
		t.Fatalf("err %v hits %d", err, hits.Load())
	}
}

func TestRetriesADroppedConnection(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		writeJSON(w, 200, userJSON)
	})
	c, _ := newTestClient(t, h, nil)
	if _, _, err := c.Viewer(context.Background()); err != nil || hits.Load() != 2 {
		t.Fatalf("err %v hits %d", err, hits.Load())
	}
}

func TestRetriesABodyCutShort(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Content-Length", "500")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			fmt.Fprint(w, `{"login":`)
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		writeJSON(w, 200, userJSON)
	})
	c, _ := newTestClient(t, h, nil)
	if _, _, err := c.Viewer(context.Background()); err != nil || hits.Load() != 2 {
		t.Fatalf("err %v hits %d", err, hits.Load())
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// A refused connection or a name that does not resolve fails at once with
// the host and the reason in plain words: retrying only delays the answer.
func TestUnreachableHostIsNotRetried(t *testing.T) {
	isolateGH(t)
	refused, err := loopback.New(closedPort(t))
	if err != nil {
		t.Fatal(err)
	}
	noHost := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.github.com", IsNotFound: true}}
	})
	for name, c := range map[string]struct {
		rt   http.RoundTripper
		want string
	}{
		"refused": {refused, "cannot reach api.github.com (connection refused)"},
		"dns":     {noHost, "cannot reach api.github.com (DNS lookup failed)"},
	} {
		clock := newFakeClock()
		cl, err := New(Options{Host: "github.com", Token: testToken, BaseTransport: c.rt, Sleep: clock.sleep, Now: clock.now, MaxAttempts: 4})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = cl.Viewer(context.Background())
		var u *UnreachableError
		if !errors.As(err, &u) || u.Error() != c.want || len(clock.slept()) != 0 {
			t.Errorf("%s: err %v, sleeps %v", name, err, clock.slept())
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Any other dial failure sent nothing, so it is retried, writes included.
func TestDialFailureIsRetriedEvenForWrites(t *testing.T) {
	isolateGH(t)
	lb := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("i/o timeout")}
	})
	clock := newFakeClock()
	c, err := New(Options{Host: "github.com", Token: testToken, BaseTransport: lb, Sleep: clock.sleep, Now: clock.now, MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Viewer(context.Background())
	var g *GiveUpError
	if !errors.As(err, &g) || len(clock.slept()) != 2 {
		t.Fatalf("GET: err %v sleeps %v", err, clock.slept())
	}
	// Nothing was sent, so resending a write is safe.
	_, err = c.PostComment(context.Background(), octoHello, 7, "hi")
	var unknown *DeliveryUnknownError
	if !errors.As(err, &g) || errors.As(err, &unknown) || len(clock.slept()) != 4 {
		t.Fatalf("POST: err %v sleeps %v", err, clock.slept())
	}
}

func TestWritesAreNotRetriedAfterAmbiguousFailures(t *testing.T) {
	cases := map[string]func(w http.ResponseWriter, r *http.Request){
		"5xx": func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 502, `{}`) },
		"dropped": func(w http.ResponseWriter, r *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		},
		"timeout": func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		},
	}
	for name, fail := range cases {
		t.Run(name, func(t *testing.T) {
			var hits atomic.Int32
			h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) { fail(w, r) })
			c, clock := newTestClient(t, h, func(o *Options) { o.AttemptTimeout = 50 * time.Millisecond })
			for op, call := range map[string]func() error{
				"REST":    func() error { _, err := c.PostComment(context.Background(), octoHello, 7, "hi"); return err },
				"GraphQL": func() error { return c.ResolveThread(context.Background(), "PRRT_1") },
			} {
				before := hits.Load()
				err := call()
				var unknown *DeliveryUnknownError
				if !errors.As(err, &unknown) || hits.Load()-before != 1 {
					t.Errorf("%s: err %v, sent %d times", op, err, hits.Load()-before)
				}
				if err != nil && !strings.Contains(err.Error(), "may or may not have been applied") {
					t.Errorf("%s: error does not say the outcome is unknown: %v", op, err)
				}
			}
			if len(clock.slept()) != 0 {
				t.Errorf("slept %v before giving up on a write", clock.slept())
			}
		})
	}
}

func TestSecondaryRateLimitHonoursRetryAfter(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "17")
			writeJSON(w, 403, `{"message":"You have exceeded a secondary rate limit."}`)
			return
		}
		writeJSON(w, 200, userJSON)
	})
	c, clock := newTestClient(t, h, nil)
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clock.slept(); len(got) != 1 || got[0] != 17*time.Second || !strings.Contains(clock.waits[0], "secondary") {
		t.Fatalf("sleeps %v waits %q", got, clock.waits)
	}
}

func TestSecondaryRateLimitWithoutRetryAfterWaitsAMinute(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			writeJSON(w, 403, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`)
			return
		}
		writeJSON(w, 200, userJSON)
	})
	c, clock := newTestClient(t, h, nil)
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clock.slept(); len(got) != 1 || got[0] != time.Minute {
		t.Fatalf("sleeps %v", got)
	}
}

func TestRateLimitedWritesAreResent(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "5")
			writeJSON(w, 429, `{"message":"secondary rate limit"}`)
			return
		}
		writeJSON(w, 201, `{"id":9,"node_id":"IC_9","body":"hi","user":{"login":"me","id":42,"type":"User"},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`)
	})
	c, clock := newTestClient(t, h, nil)
	ic, err := c.PostComment(context.Background(), octoHello, 7, "hi")
	if err != nil || ic.ID != 9 || hits.Load() != 2 || clock.slept()[0] != 5*time.Second {
		t.Fatalf("comment %+v err %v hits %d sleeps %v", ic, err, hits.Load(), clock.slept())
	}
}

func TestPrimaryRateLimitWaitsUntilReset(t *testing.T) {
	var hits atomic.Int32
	clock := newFakeClock()
	reset := clock.now().Add(2 * time.Minute).Unix()
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
			writeJSON(w, 403, `{"message":"API rate limit exceeded for user ID 42."}`)
			return
		}
		w.Header().Set("X-RateLimit-Remaining", "4999")
		writeJSON(w, 200, userJSON)
	})
	var reasons []string
	c, _ := newTestClient(t, h, func(o *Options) {
		o.Now, o.Sleep = clock.now, clock.sleep
		o.OnWait = func(r string, d time.Duration) { reasons = append(reasons, fmt.Sprintf("%s|%s", r, d)) }
	})
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clock.slept(); len(got) != 1 || got[0] != 121*time.Second {
		t.Fatalf("sleeps %v; want until reset (+1s)", got)
	}
	if len(reasons) != 1 || !strings.Contains(reasons[0], "core rate limit") || !strings.HasSuffix(reasons[0], "|2m1s") {
		t.Fatalf("OnWait %q", reasons)
	}
}

func TestRateLimitWaitBeyondMaxWaitIsAnError(t *testing.T) {
	var hits atomic.Int32
	clock := newFakeClock()
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(clock.now().Add(2*time.Hour).Unix(), 10))
		writeJSON(w, 403, `{"message":"API rate limit exceeded"}`)
	})
	c, _ := newTestClient(t, h, func(o *Options) { o.Now, o.Sleep, o.MaxWait = clock.now, clock.sleep, 5*time.Minute })
	_, _, err := c.Viewer(context.Background())
	var rl *RateLimitError
	if !errors.As(err, &rl) || rl.Resource != "core" || hits.Load() != 1 || len(clock.slept()) != 0 {
		t.Fatalf("err %v hits %d sleeps %v", err, hits.Load(), clock.slept())
	}
}

func TestSpentBudgetHoldsTheNextRequestUntilReset(t *testing.T) {
	var hits atomic.Int32
	clock := newFakeClock()
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("X-RateLimit-Resource", "core")
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(clock.now().Add(30*time.Second).Unix(), 10))
		} else {
			w.Header().Set("X-RateLimit-Remaining", "5000")
		}
		writeJSON(w, 200, userJSON)
	})
	c, _ := newTestClient(t, h, func(o *Options) { o.Now, o.Sleep = clock.now, clock.sleep })
	for range 2 {
		if _, _, err := c.Viewer(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := clock.slept(); len(got) != 1 || got[0] != 31*time.Second || hits.Load() != 2 {
		t.Fatalf("sleeps %v hits %d", got, hits.Load())
	}
	// The budget is back: no further waiting.
	if _, _, err := c.Viewer(context.Background()); err != nil || len(clock.slept()) != 1 {
		t.Fatalf("err %v sleeps %v", err, clock.slept())
	}
}

func TestGraphQLRateLimitedAnswerIsWaitedOut(t *testing.T) {
	f := newFakeGitHub(t)
	prFixture{comments: 2}.build().install(f)
	clock := newFakeClock()
	f.fault = func(w http.ResponseWriter, r *http.Request, gql bool, n int) bool {
		if gql && n == 1 {
			w.Header().Set("X-RateLimit-Resource", "graphql")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(clock.now().Add(10*time.Second).Unix(), 10))
			writeJSON(w, 200, `{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for user ID 42."}]}`)
			return true
		}
		return false
	}
	c, _ := newTestClient(t, f, func(o *Options) { o.Now, o.Sleep = clock.now, clock.sleep })
	pr, cost, err := c.ObservePR(context.Background(), octoHello, 7)
	if err != nil || len(pr.IssueComments) != 2 {
		t.Fatalf("err %v", err)
	}
	if got := clock.slept(); len(got) != 1 || got[0] != 11*time.Second || cost.Requests != 2 {
		t.Fatalf("sleeps %v cost %+v", got, cost)
	}
}

func TestCancelledContextStopsWaiting(t *testing.T) {
	var hits atomic.Int32
	h := scripted(&hits, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 502, `{}`) })
	ctx, cancel := context.WithCancel(context.Background())
	c, _ := newTestClient(t, h, func(o *Options) {
		o.Sleep = func(ctx context.Context, d time.Duration) error { cancel(); return sleepCtx(ctx, d) }
	})
	_, _, err := c.Viewer(ctx)
	if !errors.Is(err, context.Canceled) || hits.Load() != 1 {
		t.Fatalf("err %v hits %d", err, hits.Load())
	}
}
