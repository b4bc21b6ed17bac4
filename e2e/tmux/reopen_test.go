package tmux

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/schedule"
)

// The watch console closed mid-wait stops nothing: the command the
// schedule installs (`gh-prloop wakeup --all`, with the state directory
// the installer chose) carries the loop on, and the reopened console shows
// in its history every wakeup that ran while it was closed.
func TestScheduledWakeupsCarryOnWhileTheConsoleIsClosed(t *testing.T) {
	requireTmux(t)
	// Most of each test waits on simulated time; side by side they take
	// about the longer one's wall time instead of the sum (measured).
	t.Parallel()
	// Codex takes three 3-minute steps (18 s at 30×) to find something, so
	// that the console opens while the loop waits for it (or, on a slow
	// machine, for its second answer); CI settles 20 simulated seconds
	// after each push.
	gates := standalone.DefaultGates()
	gates.CheckDelay = 20 * time.Second
	sim, env, state := simWorld(t, standalone.Options{
		TimeScale: 30, BotDelay: 3 * time.Minute, Gates: &gates,
		Scenarios: []ghsim.ScenarioKind{ghsim.Findings, ghsim.CleanByReaction},
	})
	checkout := sim.Info().Checkout
	gh := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Dir, cmd.Env = checkout, env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("gh-prloop %v: %v", args, err)
		}
		return out.String(), errb.String(), code
	}
	// Headless (no terminal): start ends when execution ends.
	if out, errOut, code := gh("start", "--mode", "autonomous", "--fixer", binary+" sim fix", "--title", "Add a retry budget"); code != 0 {
		t.Fatalf("start: exit %d\n%s\n%s", code, out, errOut)
	}
	key := onlyLoop(t, state)
	history := func() []wakeup.Record {
		t.Helper()
		run, err := wakeup.OpenRun(state, key)
		if err != nil {
			t.Fatal(err)
		}
		h, err := wakeup.History(run)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	// The console's first wakeup finds Codex still at work: it waits.
	term := newTerminal(t, checkout, env, shellQuote(binary)+" watch "+shellQuote(key))
	term.waitScreen("the loop waiting, with its wakeup in the history", 600, func(s string) bool {
		return strings.Contains(s, "next: wait") && strings.Contains(s, "  wakeup wait (")
	})
	term.press("q")
	if st := term.waitExit("q", 600); st != "0" {
		t.Fatalf("watch exited %s:\n%s", st, term.transcript())
	}
	closedAt := len(history())
	if closedAt == 0 {
		t.Fatal("the console's wakeup left no record")
	}

	// What the schedule runs, until the loop does something else than wait.
	// The pause only lets simulated time pass (and keeps the records few
	// enough for the history pane); nothing is asserted about it.
	moved := false
	for range 200 {
		if out, errOut, code := gh(schedule.WakeupArgs...); code != 0 {
			t.Fatalf("wakeup --all: exit %d\n%s\n%s", code, out, errOut)
		}
		for _, r := range history()[closedAt:] {
			if r.Action != "wait" {
				moved = true
			}
		}
		if moved {
			break
		}
		time.Sleep(2 * time.Second)
	}
	if !moved {
		t.Fatalf("the loop never moved on while the console was closed: %+v", history()[closedAt:])
	}
	all := history()
	ranClosed := all[closedAt:]

	// Reopened, the console lists each of them: consecutive wakeups that
	// decided the same thing share one line (the newest time, ×N), so each
	// run of them that holds a wakeup from while it was closed is expected.
	term2 := newTerminal(t, checkout, env, shellQuote(binary)+" watch "+shellQuote(key))
	var want []string
	for end := len(all) - 1; end >= 0; end-- {
		start := end
		for start > 0 && all[start-1].Action == all[end].Action && all[start-1].Reason == all[end].Reason && all[start-1].Message == all[end].Message {
			start--
		}
		r := all[end]
		if end >= closedAt {
			at, err := time.Parse(time.RFC3339, r.Time)
			if err != nil {
				t.Fatalf("history time %q: %v", r.Time, err)
			}
			line := fmt.Sprintf("%s  wakeup %s (%s)", at.UTC().Format("15:04:05"), r.Action, r.Reason)
			if n := end - start + 1; n > 1 {
				line += fmt.Sprintf(" ×%d", n)
			}
			want = append(want, line)
		}
		end = start
	}
	screen := term2.waitScreen("the wakeups that ran while it was closed", 600, func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
	t.Logf("%d wakeups ran while the console was closed; the reopened console:\n%s", len(ranClosed), screen)
	term2.press("q")
	term2.waitExit("q on the reopened console", 600)
}

// onlyLoop is the key of the registry's one automation.
func onlyLoop(t *testing.T, state string) string {
	t.Helper()
	reg, err := automations.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := reg.List(context.Background())
	if err != nil || len(recs) != 1 {
		t.Fatalf("registry: %v %+v", err, recs)
	}
	return recs[0].Key
}
