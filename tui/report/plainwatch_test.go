package report

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer lets the test read what the watch loop writes from another goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPlainWatchReprintsOnlyRealChanges: a refresh that differs only in the
// observation time and its cost prints nothing; a changed classification does.
func TestPlainWatchReprintsOnlyRealChanges(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	fetch := func(context.Context) (View, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		v := View{Repository: "octo/widgets", Number: 42, Classification: "awaiting-response",
			ObservedAt: time.Date(2026, 1, 1, 0, 0, calls, 0, time.UTC).Format(time.RFC3339), Cost: strings.Repeat("x", calls)}
		if calls >= 4 {
			v.Classification = "findings"
		}
		return v, nil
	}
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Fetch: fetch, Watch: true, Interval: time.Millisecond, Out: out, Plain: true, Getenv: func(string) string { return "" }})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "octo/widgets") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	text := out.String()
	if got := strings.Count(text, "octo/widgets"); got != 2 {
		t.Fatalf("want the report printed twice (first, then on the real change), got %d times:\n%s", got, text)
	}
	second := text[strings.LastIndex(text, "octo/widgets"):]
	if first := text[:strings.LastIndex(text, "octo/widgets")]; strings.Contains(first, "FINDINGS") || !strings.Contains(strings.ToUpper(second), "FINDINGS") {
		t.Fatalf("the second print must be the changed classification:\n%s", text)
	}
}
