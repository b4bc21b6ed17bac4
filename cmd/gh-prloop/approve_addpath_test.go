package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/live"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/testutil"
)

// awaitingLoop is an approval-gated loop whose fix round's plan waits.
func awaitingLoop(t *testing.T) (planEnv, string, wakeup.Deps, *wakeup.Pending) {
	t.Helper()
	env, key, sim := activeLoop(t, ghsim.Scenario{Kind: ghsim.Findings})
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != 0 {
		t.Fatalf("first wakeup: %d %q", code, errOut)
	}
	sim.Settle()
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != wakeup.ExitPending {
		t.Fatalf("findings wakeup: %d %q", code, errOut)
	}
	cmd := newApproveCmd(env)
	cmd.SetContext(context.Background())
	d, err := wakeupDeps(cmd, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := wakeup.PendingPlan(context.Background(), d.Root, key)
	if err != nil {
		t.Fatal(err)
	}
	return env, key, d, p
}

func addKeys(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var clearField = tea.KeyMsg{Type: tea.KeyCtrlU}

// addPathFlow drives an approval console whose AddPath is the command's:
// a path outside the checkout is refused with nothing written; a good one
// rebuilds the plan (stored, with the path in its scope) and the screen;
// the old hash can no longer be approved, the new one can.
func addPathFlow(t *testing.T, m *approval.Model, d wakeup.Deps, key, oldHash string) {
	t.Helper()
	ctx := context.Background()
	if !strings.Contains(m.View(), "+ add path") {
		t.Fatalf("the key bar does not offer + add path:\n%s", m.View())
	}
	for _, bad := range []string{"../outside.go", "/etc/passwd", ".git/config", "internal/retry/budget.go"} {
		runScreen(t, m, addKeys("+"), addKeys(bad), tea.KeyMsg{Type: tea.KeyEnter})
		if v := ansi.Strip(m.View()); !strings.Contains(v, "Not added") {
			t.Errorf("%q was not refused:\n%s", bad, v)
		}
		runScreen(t, m, tea.KeyMsg{Type: tea.KeyEsc})
		if q, _ := wakeup.PendingPlan(ctx, d.Root, key); q == nil || q.PlanHash != oldHash {
			t.Fatalf("a refused path changed the plan: %+v", q)
		}
	}
	runScreen(t, m, addKeys("+"), addKeys("README.md"), tea.KeyMsg{Type: tea.KeyEnter})
	q, err := wakeup.PendingPlan(ctx, d.Root, key)
	if err != nil || q.PlanHash == oldHash || !slices.Contains(q.Checkpoint.RemediationManifest.Paths, "README.md") {
		t.Fatalf("the plan was not rebuilt with README.md: %v %+v", err, q)
	}
	if m.PlanHash() != q.PlanHash || !strings.Contains(ansi.Strip(m.View()), "Added README.md") {
		t.Fatalf("the screen shows plan %s, the stored one is %s:\n%s", m.PlanHash(), q.PlanHash, m.View())
	}
	runScreen(t, m, typed(oldHash)...)
	if m.Result().Outcome == approval.Approved {
		t.Fatal("the old hash was approved")
	}
	if q, _ := wakeup.PendingPlan(ctx, d.Root, key); q.Approved {
		t.Fatal("the old hash was recorded")
	}
	runScreen(t, m, clearField)
	runScreen(t, m, typed(q.PlanHash)...)
	if r := m.Result(); r.Outcome != approval.Approved {
		t.Fatalf("the new hash: %s %v\n%s", r.Outcome, r.Err, m.View())
	}
	if a, _ := wakeup.PendingPlan(ctx, d.Root, key); !a.Approved || a.PlanHash != q.PlanHash {
		t.Fatalf("the new plan's approval was not recorded: %+v", a)
	}
}

// `gh-prloop approve` on a terminal: the fix round's console shows the
// commit author (the executors' rule) and adds a path with +.
func TestApproveConsoleShowsTheAuthorAndAddsAPath(t *testing.T) {
	env, key, d, p := awaitingLoop(t)
	cmd := newApproveCmd(env)
	cmd.SetContext(context.Background())
	o, err := approveOptions(cmd, env, d, key, p)
	if err != nil {
		t.Fatal(err)
	}
	login, id, err := viewer(cmd, env)
	if err != nil {
		t.Fatal(err)
	}
	if want := loopCommitAuthor(context.Background(), d, key, login, id); o.View.Author == "" || o.View.Author != want {
		t.Fatalf("author %q, want %q", o.View.Author, want)
	}
	m := approval.New(approval.Config{View: o.View, Recheck: o.Recheck, Record: o.Record, AddPath: o.AddPath, Context: context.Background()}, testutil.Styles())
	m.SetSize(120, 40)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "author") || !strings.Contains(v, o.View.Author) {
		t.Fatalf("no author row:\n%s", v)
	}
	addPathFlow(t, m, d, key, p.PlanHash)
}

// The watch console's approval screen adds a path the same way, through
// its own wakeup (same lock and code path), and shows the author too.
func TestWatchApprovalScreenAddsAPath(t *testing.T) {
	env, key, d, p := awaitingLoop(t)
	cmd := newWatchCmd(env)
	cmd.SetContext(context.Background())
	cmd.SetOut(&strings.Builder{})
	w := newWatchWiring(cmd, env, d)
	w.styles = testutil.Styles()
	src := &live.Source{Deps: d, Key: key}
	l, err := src.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l.Next = status.Next{PlanHash: p.PlanHash, PlanKind: p.Kind}
	scr, err := w.approvalFor(cmd, src)(l)
	if err != nil {
		t.Fatal(err)
	}
	m := scr.(approvalScreen).Model
	m.SetSize(120, 40)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "author") || !strings.Contains(v, "Press + to add one") {
		t.Fatalf("approval screen:\n%s", v)
	}
	addPathFlow(t, m, d, key, p.PlanHash)
}
