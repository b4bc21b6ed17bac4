package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// lockedBuffer is a console's output read while its program still writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The real approval screen hosted by the watch console, in a running
// program: typing the plan hash records the approval (the screen's re-check
// and record messages reach it, and its Update keeps it a watch.Screen).
// Both failed on a real terminal: the first key panicked the console, and
// the screen's own messages were dropped so nothing was ever recorded.
func TestWatchConsoleRecordsAnApprovalTypedInIt(t *testing.T) {
	env, key, sim := activeLoop(t, ghsim.Scenario{Kind: ghsim.Findings})
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != 0 {
		t.Fatalf("first wakeup: %d %q", code, errOut)
	}
	sim.Settle()
	state := env.getenv(statestore.EnvStateDir)
	// The findings wakeup stores the plan and stops for its hash (exit 8).
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != 8 {
		t.Fatalf("findings wakeup: %d %q", code, errOut)
	}
	p, err := wakeup.PendingPlan(context.Background(), state, key)
	if err != nil || p == nil || p.Approved {
		t.Fatalf("pending plan: %v %+v", err, p)
	}

	tty := watchEnv(env, "GH_FORCE_TTY", "1")
	cmd := newWatchCmd(tty)
	pr, pw := io.Pipe()
	var out lockedBuffer
	var errOut bytes.Buffer
	cmd.SetIn(pr)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs([]string{key})
	// A failed poll ends the console by its context (a closed input
	// does not end a Bubble Tea program).
	ctx, cancel := context.WithCancel(context.Background())
	cmd.SetContext(ctx)
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	defer func() {
		cancel()
		pw.Close()
		<-done
	}()

	// Bounded polls: each waits for the console to draw what it must, never
	// for a duration to pass.
	poll := func(what string, ok func() bool) {
		t.Helper()
		for range 3000 {
			if ok() {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("the console never %s; it drew:\n%s\nstderr: %s", what, out.String(), errOut.String())
	}
	poll("opened the approval screen", func() bool { return strings.Contains(out.String(), "64-character plan hash") })
	// one key at a time, as a terminal delivers them
	for _, r := range p.PlanHash {
		if _, err := pw.Write([]byte(string(r))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pw.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	poll("recorded the approval", func() bool {
		q, err := wakeup.PendingPlan(context.Background(), state, key)
		return err == nil && (q == nil || q.Approved)
	})
	// q closes the console once the approval screen has handed the
	// keyboard back (a q typed while it still records is its own, and
	// ignored): type it until the console ends.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := pw.Write([]byte("q")); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	err = <-done
	close(stop)
	pw.Close()
	done <- nil
	if err != nil {
		t.Fatalf("watch: %v\n%s", err, errOut.String())
	}
	if strings.Contains(out.String(), "panic") || strings.Contains(errOut.String(), "panic") {
		t.Fatalf("the console panicked:\n%s\n%s", out.String(), errOut.String())
	}
}
