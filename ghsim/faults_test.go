package ghsim

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestFaultStatusAppliesToMatchingRequestsOnly(t *testing.T) {
	f := newFixture(t)
	for _, code := range []int{500, 502, 503} {
		f.s.InjectFault(Fault{Kind: FaultStatus, Status: code, Match: Match{Method: "GET", Path: "/repos/*/*/pulls/*"}})
		if r := f.do("GET", "/user", nil); r.status != 200 {
			t.Fatalf("unmatched path faulted: %d", r.status)
		}
		r := f.do("GET", "/api/v3/repos/acme/app/pulls/7", nil)
		if r.status != code || dig(t, r.json(t), "message") == nil {
			t.Fatalf("want %d, got %d %s", code, r.status, r.body)
		}
		if r := f.do("GET", "/repos/acme/app/pulls/7", nil); r.status != 200 {
			t.Fatalf("fault outlived Times=1: %d", r.status)
		}
	}
	if st := f.s.Stats(); st.Faults != 3 {
		t.Errorf("Faults = %d", st.Faults)
	}
}

func TestFaultTimesAndCancel(t *testing.T) {
	f := newFixture(t)
	f.s.InjectFault(Fault{Kind: FaultStatus, Status: 500, Times: 2, Match: Match{Kind: KindREST}})
	for i, want := range []int{500, 500, 200} {
		if r := f.do("GET", "/user", nil); r.status != want {
			t.Fatalf("request %d: %d, want %d", i, r.status, want)
		}
	}
	cancel := f.s.InjectFault(Fault{Kind: FaultStatus, Status: 503, Times: -1})
	for i := 0; i < 3; i++ {
		if r := f.do("GET", "/user", nil); r.status != 503 {
			t.Fatalf("persistent fault stopped: %d", r.status)
		}
	}
	cancel()
	if r := f.do("GET", "/user", nil); r.status != 200 || f.s.PendingFaults() != 0 {
		t.Fatalf("after cancel: %d pending=%d", r.status, f.s.PendingFaults())
	}
	f.s.InjectFault(Fault{Kind: FaultStatus, Body: "<html>unicorn</html>"})
	r := f.do("GET", "/user", nil)
	if r.status != 502 || string(r.body) != "<html>unicorn</html>" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("raw body fault: %d %q", r.status, r.body)
	}
}

func TestFaultDelayTriggersClientTimeout(t *testing.T) {
	f := newFixture(t)
	f.s.InjectFault(Fault{Kind: FaultDelay, Delay: 2 * time.Second, Match: Match{Path: "/user"}})
	client := &http.Client{Timeout: 100 * time.Millisecond}
	req, _ := http.NewRequest("GET", f.s.URL()+"/user", nil)
	req.Header.Set("Authorization", "token x")
	start := time.Now()
	_, err := client.Do(req)
	var te interface{ Timeout() bool }
	if err == nil || !errors.As(err, &te) || !te.Timeout() {
		t.Fatalf("want a client timeout, got %v", err)
	}
	if time.Since(start) > 1500*time.Millisecond {
		t.Errorf("client waited for the whole delay")
	}
	// A delay shorter than the client's patience is just slow.
	f.s.InjectFault(Fault{Kind: FaultDelay, Delay: 20 * time.Millisecond})
	if r := f.do("GET", "/user", nil); r.status != 200 {
		t.Fatalf("short delay: %d", r.status)
	}
}

func TestFaultDropClosesTheConnection(t *testing.T) {
	f := newFixture(t)
	f.s.InjectFault(Fault{Kind: FaultDrop, Match: Match{Kind: KindGraphQL}})
	req, _ := http.NewRequest("POST", f.s.URL()+"/graphql", strings.NewReader(`{"query":"{viewer{login}}"}`))
	req.Header.Set("Authorization", "token x")
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("dropped connection answered %d", resp.StatusCode)
	}
	if r := f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"}); r.status != 200 {
		t.Fatalf("after drop: %d", r.status)
	}
}

func TestFaultSecondaryLimit(t *testing.T) {
	f := newFixture(t)
	f.s.InjectFault(Fault{Kind: FaultSecondaryLimit, RetryAfter: 90 * time.Second})
	r := f.do("GET", "/user", nil)
	msg, _ := dig(t, r.json(t), "message").(string)
	if r.status != 403 || r.header.Get("Retry-After") != "90" || !strings.HasPrefix(msg, "You have exceeded a secondary rate limit") {
		t.Fatalf("secondary: %d %v %s", r.status, r.header, r.body)
	}
	if r.header.Get("X-RateLimit-Remaining") == "0" {
		t.Error("a secondary limit must not look like an exhausted primary limit")
	}
}

func TestFaultPrimaryLimit(t *testing.T) {
	f := newFixture(t)
	for _, code := range []int{0, 429} {
		f.s.InjectFault(Fault{Kind: FaultPrimaryLimit, Status: code, Match: Match{Kind: KindGraphQL}})
		r := f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"})
		want := code
		if want == 0 {
			want = 403
		}
		if r.status != want || r.header.Get("X-RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Resource") != "graphql" ||
			r.header.Get("X-RateLimit-Reset") == "" || !strings.HasPrefix(dig(t, r.json(t), "message").(string), "API rate limit exceeded") {
			t.Fatalf("primary %d: %d %v %s", code, r.status, r.header, r.body)
		}
	}
	if r := f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"}); r.status != 200 {
		t.Fatalf("after fault: %d", r.status)
	}
}

func TestFaultGraphQLPageFailsMidPagination(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 5; i++ {
		f.pr.AddComment(Comment{Body: "c"})
	}
	f.s.InjectFault(Fault{Kind: FaultGraphQLPage, Connection: "comments", Page: 2})
	q := `query($after: String) { repository(owner:"acme",name:"app") { pullRequest(number:7) { number comments(first:2, after:$after) { pageInfo { hasNextPage endCursor } nodes { body } } } } }`
	first := f.graphql(q, nil)
	if _, ok := first["errors"]; ok {
		t.Fatalf("page 1 failed: %v", first)
	}
	cursor := dig(t, first, "data", "repository", "pullRequest", "comments", "pageInfo", "endCursor")
	second := f.graphql(q, map[string]any{"after": cursor})
	e := dig(t, second, "errors", 0)
	if dig(t, e, "type") != "INTERNAL" || !strings.HasPrefix(dig(t, e, "message").(string), "Something went wrong while executing your query") {
		t.Fatalf("page 2 error = %v", e)
	}
	if dig(t, second, "data", "repository", "pullRequest", "comments") != nil || dig(t, second, "data", "repository", "pullRequest", "number") != 7.0 {
		t.Fatalf("page 2 data = %v", dig(t, second, "data"))
	}
	retry := f.graphql(q, map[string]any{"after": cursor})
	if _, ok := retry["errors"]; ok {
		t.Fatalf("fault outlived Times=1: %v", retry)
	}
}
