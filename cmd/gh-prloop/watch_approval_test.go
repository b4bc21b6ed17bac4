package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/live"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/testutil"
)

// runScreen feeds msgs to m and runs every command to completion; a
// tea.Quit ends it.
func runScreen(t *testing.T, m tea.Model, msgs ...tea.Msg) {
	t.Helper()
	var queue []tea.Cmd
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		queue = append(queue, cmd)
	}
	for n := 0; len(queue) > 0; n++ {
		if n > 10000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func typed(s string) []tea.Msg {
	return []tea.Msg{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}, tea.KeyMsg{Type: tea.KeyEnter}}
}

// The watch console's approval screen shows the pending remediation plan
// (its threads by path:line and title, paths, operations, hash) and records
// the approval only for the exact hash, as `approve --hash` does.
func TestWatchApprovalScreenRecordsTheExactHash(t *testing.T) {
	env, key, sim := activeLoop(t, ghsim.Scenario{Kind: ghsim.Findings})
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != 0 {
		t.Fatalf("first wakeup: %d %q", code, errOut)
	}
	sim.Settle()
	cmd := newWatchCmd(env)
	cmd.SetContext(context.Background())
	var out bytes.Buffer
	cmd.SetOut(&out)
	d, err := wakeupDeps(cmd, env)
	if err != nil {
		t.Fatal(err)
	}
	w := newWatchWiring(cmd, env, d)
	w.styles = testutil.Styles()
	src := &live.Source{Deps: d, Key: key}
	l, err := src.Wakeup(context.Background(), nil)
	if err != nil || l.Phase() != status.PhaseAwaitingApproval {
		t.Fatalf("findings wakeup: %v %s %+v", err, l.Phase(), l.Next)
	}
	open := func() *approval.Model {
		scr, err := w.approvalFor(cmd, src)(l)
		if err != nil {
			t.Fatal(err)
		}
		m := scr.(approvalScreen).Model
		m.SetSize(120, 40)
		return m
	}

	m := open()
	view := m.View()
	var actionable status.Thread
	for _, th := range l.Threads {
		if th.Kind == "actionable" {
			actionable = th
		}
	}
	for _, want := range []string{"fix round 1", actionable.Title, "--add-path PATH", "request-codex-review", "Plan hash"} {
		if !strings.Contains(view, want) {
			t.Errorf("approval screen lacks %q:\n%s", want, view)
		}
	}

	runScreen(t, m, typed(strings.Repeat("0", 64))...)
	if p, _ := wakeup.PendingPlan(context.Background(), d.Root, key); p == nil || p.Approved {
		t.Fatalf("a wrong hash was recorded: %+v", p)
	}
	m = open()
	runScreen(t, m, typed(l.Next.PlanHash)...)
	if r := m.Result(); r.Outcome != approval.Approved {
		t.Fatalf("outcome %s (%v)", r.Outcome, r.Err)
	}
	if p, err := wakeup.PendingPlan(context.Background(), d.Root, key); err != nil || !p.Approved || p.PlanHash != l.Next.PlanHash {
		t.Fatalf("approval not recorded: %v %+v", err, p)
	}
}
