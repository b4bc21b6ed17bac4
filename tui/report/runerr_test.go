package report

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestConsoleThatNeverFetchedReturnsTheError: the interactive console whose
// every fetch failed returns the failure, so the command exits non-zero.
func TestConsoleThatNeverFetchedReturnsTheError(t *testing.T) {
	fetched := make(chan struct{}, 1)
	fetch := func(context.Context) (View, error) {
		defer func() { fetched <- struct{}{} }()
		return View{}, errors.New("pull request not found")
	}
	pr, pw := io.Pipe()
	go func() {
		select {
		case <-fetched:
		case <-time.After(10 * time.Second):
		}
		time.Sleep(100 * time.Millisecond) // let the failure reach the model
		_, _ = pw.Write([]byte("q"))
	}()
	var out bytes.Buffer
	getenv := func(k string) string {
		if k == "GH_FORCE_TTY" {
			return "1"
		}
		return ""
	}
	err := Run(context.Background(), Options{Fetch: fetch, Out: &out, In: pr, Getenv: getenv})
	if err == nil || !strings.Contains(err.Error(), "pull request not found") {
		t.Fatalf("want the fetch error, got %v", err)
	}
}
