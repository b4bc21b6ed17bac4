package ghsim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// send is a goroutine-safe request helper: it reports instead of failing.
func send(base, method, path string, body any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
	}
	return nil
}

// TestConcurrentClients exercises every lock path at once; run with -race.
func TestConcurrentClients(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Findings})
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				var err error
				switch (w + i) % 5 {
				case 0:
					err = send(f.s.URL(), "POST", "/repos/acme/app/issues/7/comments", map[string]any{"body": fmt.Sprintf("@codex review %d-%d", w, i)})
				case 1:
					err = send(f.s.URL(), "GET", "/repos/acme/app/pulls/7/comments", nil)
				case 2:
					err = send(f.s.URL(), "POST", "/graphql", map[string]any{"query": observeQuery, "variables": prVars()})
				case 3:
					f.s.AdvanceCodex()
					f.clock.Advance(time.Second)
				case 4:
					f.pr.AddComment(Comment{Body: "seed"})
					_ = f.s.Stats()
				}
				if err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	wg.Wait()
	f.s.Settle()
	if f.s.PendingCodex() != 0 {
		t.Fatalf("pending = %d", f.s.PendingCodex())
	}
	// 16 requests, each answered by one review with two findings.
	if n := len(f.pr.Reviews()); n != 16 {
		t.Errorf("reviews = %d, want 16", n)
	}
	if n := len(f.pr.Threads()); n != 32 {
		t.Errorf("threads = %d, want 32", n)
	}
}
