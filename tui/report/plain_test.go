package report

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
)

func TestPlainGolden(t *testing.T) {
	out := Plain(sample())
	assertClean(t, "plain", out, false)
	teatest.RequireEqualOutput(t, []byte(out))
}

func TestPlainStates(t *testing.T) {
	v := sample()
	v.Classification, v.Threads, v.Responses, v.Request = "no-request", nil, nil, nil
	v.Reviewing, v.SummaryState, v.Draft = true, "running", true
	v.Gates = Gates{Approvals: "APPROVED", Checks: "pass"}
	v.Notices = []string{"You have reached your Codex usage limits."}
	v.Err = "evaluator: schema"
	out := Plain(v)
	for _, want := range []string{
		"state: open (draft)\n",
		"classification: NO REQUEST — no Codex review has been requested\n",
		"codex: reviewing (summary: running)\n",
		// A value outside the vocabulary is unknown, never a pass.
		"gates: approvals=unknown branch_protection=unknown checks=pass mergeability=unknown\n",
		"request: none\n",
		"responses (0):\n",
		"threads (0):\n",
		"notice: You have reached your Codex usage limits.\n",
		"error: evaluator: schema\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestRunPlainWhenNotATerminal(t *testing.T) {
	var out bytes.Buffer
	err := Run(context.Background(), Options{Fetch: constant(sample()), Out: &out, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != Plain(sample()) {
		t.Errorf("Run wrote:\n%s", out.String())
	}
}

func TestRunPlainFetchError(t *testing.T) {
	var out bytes.Buffer
	boom := errors.New("boom")
	err := Run(context.Background(), Options{Fetch: func(context.Context) (View, error) { return View{}, boom }, Out: &out, Plain: true})
	if !errors.Is(err, boom) || out.Len() != 0 {
		t.Errorf("err %v, output %q", err, out.String())
	}
}

func TestRunWithoutFetch(t *testing.T) {
	if err := Run(context.Background(), Options{Out: &bytes.Buffer{}}); err == nil {
		t.Error("Run without Fetch must fail")
	}
}

func TestRunPlainWatch(t *testing.T) {
	changed := sample()
	changed.Title = "Second title"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	fetch := func(context.Context) (View, error) {
		switch calls.Add(1) {
		case 1, 2: // the second is unchanged and must not be printed again
			return sample(), nil
		case 3:
			return View{}, errors.New("rate limited \x1b[31m")
		case 4:
			return changed, nil
		default:
			cancel()
			return changed, nil
		}
	}
	var out bytes.Buffer
	err := Run(ctx, Options{Fetch: fetch, Out: &out, Plain: true, Watch: true, Interval: time.Millisecond})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	watched := func(v View) View { v.Watch, v.NextRefresh = true, "every 1ms"; return v }
	want := Plain(watched(sample())) + "refresh failed: rate limited\n" + "\n" + Plain(watched(changed))
	if !strings.Contains(want, "refresh: every 1ms\n") {
		t.Fatal("plain watch output should state the period")
	}
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestRunInteractiveQuits(t *testing.T) {
	// GH_FORCE_TTY selects the interactive console on a plain writer; "q"
	// on the input quits it.
	var out bytes.Buffer
	env := func(k string) string {
		if k == "GH_FORCE_TTY" || k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Fetch: constant(sample()), Out: &out, In: strings.NewReader("q"), Getenv: env})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("console did not quit on q")
	}
	if !strings.Contains(out.String(), "\x1b[?1049h") {
		t.Error("expected the interactive console (alternate screen) on a forced TTY")
	}
}

func TestRunInteractiveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	env := func(k string) string {
		if k == "GH_FORCE_TTY" {
			return "1"
		}
		return ""
	}
	in, w := ioPipe()
	defer w.Close()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Fetch: constant(sample()), Out: &bytes.Buffer{}, In: in, Getenv: env})
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("console did not stop on cancel")
	}
}

// The plain report says so when the data comes from the simulator.
func TestRunPlainSaysSimulator(t *testing.T) {
	var out bytes.Buffer
	err := Run(context.Background(), Options{Fetch: constant(sample()), Out: &out, Simulated: true, Getenv: func(string) string { return "" }})
	if err != nil || !strings.Contains(out.String(), "source: the GitHub simulator (not github.com)") {
		t.Fatalf("err %v\n%s", err, out.String())
	}
	if strings.Contains(Plain(sample()), "simulator") {
		t.Error("real data must not say simulator")
	}
}
