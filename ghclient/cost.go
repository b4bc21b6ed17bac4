package ghclient

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Cost is what one call spent. Remaining counts are -1 when no response in
// the call reported them.
type Cost struct {
	Requests         int // HTTP requests sent (round trips), retries included
	NotModified      int // 304 answers served from the ETag cache
	RESTCharged      int // REST answers GitHub counts against the core budget: all but 304s
	GraphQLPoints    int // sum of rateLimit.cost of the GraphQL queries
	RateRemaining    int // REST core X-RateLimit-Remaining after the call
	GraphQLRemaining int // GraphQL points remaining after the call
}

// Add accumulates o into c; remaining counts take o's when o knows them.
func (c *Cost) Add(o Cost) {
	c.Requests += o.Requests
	c.NotModified += o.NotModified
	c.RESTCharged += o.RESTCharged
	c.GraphQLPoints += o.GraphQLPoints
	if o.RateRemaining >= 0 {
		c.RateRemaining = o.RateRemaining
	}
	if o.GraphQLRemaining >= 0 {
		c.GraphQLRemaining = o.GraphQLRemaining
	}
}

func newCost() Cost { return Cost{RateRemaining: -1, GraphQLRemaining: -1} }

// meter collects the Cost of every request made under one context.
type meter struct {
	mu   sync.Mutex
	cost Cost
}

type meterKey struct{}

func withMeter(ctx context.Context) (context.Context, *meter) {
	m := &meter{cost: newCost()}
	return context.WithValue(ctx, meterKey{}, m), m
}

func meterFrom(ctx context.Context) *meter {
	m, _ := ctx.Value(meterKey{}).(*meter)
	return m
}

func (m *meter) snapshot() Cost {
	if m == nil {
		return newCost()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cost
}

func (m *meter) addPoints(cost, remaining int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cost.GraphQLPoints += cost
	m.cost.GraphQLRemaining = remaining
}

func (m *meter) record(req *http.Request, resp *http.Response) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cost.Requests++
	if resp == nil {
		return
	}
	resource := resourceOf(req, resp)
	switch {
	case resp.StatusCode == http.StatusNotModified:
		m.cost.NotModified++
	case resource != "graphql":
		m.cost.RESTCharged++
	}
	rem, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
	if err != nil {
		return
	}
	switch resource {
	case "core":
		m.cost.RateRemaining = rem
	case "graphql":
		m.cost.GraphQLRemaining = rem
	}
}

// resourceOf names the rate-limit bucket of a request: the server's
// X-RateLimit-Resource when present, else GraphQL by path, else core.
func resourceOf(req *http.Request, resp *http.Response) string {
	if resp != nil {
		if r := resp.Header.Get("X-RateLimit-Resource"); r != "" {
			return r
		}
	}
	if strings.HasSuffix(req.URL.Path, "/graphql") {
		return "graphql"
	}
	return "core"
}

// meterTransport sits closest to the wire so that every attempt counts.
type meterTransport struct{ next http.RoundTripper }

func (t meterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	meterFrom(req.Context()).record(req, resp)
	return resp, err
}
