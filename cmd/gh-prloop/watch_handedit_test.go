package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/testutil"
	"github.com/prloop/gh-prloop/tui/watch"
)

// handEditConsole is an approval-gated loop without a fixer whose fix
// round's plan waits, and the watch console of it wired as `gh-prloop
// watch` wires it (executors with this console's prompts), driven by
// messages without a program (no clock).
type handEditConsole struct {
	t     *testing.T
	env   planEnv
	key   string
	deps  wakeup.Deps
	w     *watchWiring
	m     *watch.Model
	root  string // the checkout
	paths []string
	hash  string
}

func newHandEditConsole(t *testing.T) *handEditConsole {
	t.Helper()
	env, key, sim := activeLoop(t, ghsim.Scenario{Kind: ghsim.Findings})
	if _, errOut, code := runLoopCLI(t, env, "wakeup", key); code != 0 {
		t.Fatalf("first wakeup: %d %q", code, errOut)
	}
	sim.Settle()
	cmd := newWatchCmd(env)
	cmd.SetContext(context.Background())
	cmd.SetOut(&strings.Builder{})
	d, err := wakeupDeps(cmd, env)
	if err != nil {
		t.Fatal(err)
	}
	w := newWatchWiring(cmd, env, d)
	w.styles = testutil.Styles()
	w.withEvents = func(o wakeup.RemediationOptions) (wakeup.Deps, error) { return wakeupDepsWith(cmd, env, o) }
	c := &handEditConsole{t: t, env: env, key: key, deps: d, w: w, m: w.console(key)}
	c.m.SetSize(120, 40)
	runScreen(t, c.m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}) // findings → the plan → its approval screen
	p, err := wakeup.PendingPlan(context.Background(), d.Root, key)
	if err != nil {
		t.Fatal(err)
	}
	c.paths, c.hash = p.Checkpoint.RemediationManifest.Paths, p.PlanHash
	run, err := wakeup.OpenRun(d.Root, key)
	if err != nil {
		t.Fatal(err)
	}
	if c.root, _, err = (wakeup.LocalCheckout{Git: d.Git}).CheckoutPush(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if v := c.m.View(); !strings.Contains(v, "Plan hash") {
		t.Fatalf("no approval screen:\n%s", v)
	}
	return c
}

// approve types the plan hash: the approval is recorded and the console's
// wakeup executes the plan up to the hand edit.
func (c *handEditConsole) approve() {
	c.t.Helper()
	runScreen(c.t, c.m, typed(c.hash)...)
	if v := c.m.View(); !strings.Contains(v, "EDIT BY HAND") {
		c.t.Fatalf("no hand-edit screen after the approval:\n%s", v)
	}
	for _, p := range c.paths {
		if !strings.Contains(c.m.View(), p) {
			c.t.Errorf("the hand-edit screen does not name %s", p)
		}
	}
}

func (c *handEditConsole) edit() {
	c.t.Helper()
	for _, p := range c.paths {
		f, err := os.OpenFile(filepath.Join(c.root, filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			c.t.Fatal(err)
		}
		_, _ = f.WriteString("\n// fixed by hand in the console\n")
		f.Close()
	}
}

func (c *handEditConsole) press(k string) {
	c.t.Helper()
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	switch k {
	case "enter":
		msg = tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		msg = tea.KeyMsg{Type: tea.KeyEsc}
	}
	runScreen(c.t, c.m, msg)
}

func (c *handEditConsole) checkpoint() *checkpoint.Checkpoint {
	c.t.Helper()
	run, err := wakeup.OpenRun(c.deps.Root, c.key)
	if err != nil {
		c.t.Fatal(err)
	}
	cp, err := checkpoint.Read(run)
	if err != nil {
		c.t.Fatal(err)
	}
	return cp
}

func (c *handEditConsole) automation() automations.Record {
	c.t.Helper()
	r, ok, err := c.deps.Registry.Get(context.Background(), c.key)
	if err != nil || !ok {
		c.t.Fatalf("automation: %v %v", ok, err)
	}
	return r
}

// Issue 8 item 3 end to end in process: approval-gated without a fixer,
// the watch console approves, says which files to change, waits for the
// human, shows the resulting diff and commits only on y.
func TestWatchHandEditRoundCommitsAfterTheDiff(t *testing.T) {
	c := newHandEditConsole(t)
	c.approve()
	c.edit()
	c.press("enter")
	v := c.m.View()
	if !strings.Contains(v, "REVIEW THE DIFF") || !strings.Contains(v, "+ // fixed by hand in the console") {
		t.Fatalf("no diff screen:\n%s", v)
	}
	if c.checkpoint().FixRounds != 0 {
		t.Fatal("committed before the diff was confirmed")
	}
	c.press("y")
	c.m.Wait()
	if cp := c.checkpoint(); cp.FixRounds != 1 {
		t.Fatalf("fix rounds %d after the confirmed diff", cp.FixRounds)
	}
	if strings.Contains(c.m.View(), "REVIEW THE DIFF") {
		t.Fatal("the console did not return to the loop")
	}
}

// n on the diff refuses it: the round halts (the loop is paused), nothing
// is committed, and the edit is left in the worktree.
func TestWatchDiffRefusedCommitsNothing(t *testing.T) {
	c := newHandEditConsole(t)
	c.approve()
	c.edit()
	c.press("enter")
	c.press("n")
	c.m.Wait()
	if cp := c.checkpoint(); cp.FixRounds != 0 {
		t.Fatalf("fix rounds %d after a refused diff", cp.FixRounds)
	}
	if a := c.automation(); a.Status != automations.StatusPaused || !strings.Contains(a.Reason, "not confirmed") {
		t.Fatalf("automation %+v", a)
	}
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(c.paths[0])))
	if err != nil || !strings.Contains(string(data), "fixed by hand in the console") {
		t.Fatalf("the edit was not left in the worktree: %v", err)
	}
}

// Closing the console on the hand-edit screen is not a refusal: the loop
// stays ACTIVE with edit-files reserved, a headless wakeup says to open
// the console, and a new console resumes at the edit.
func TestWatchClosedDuringTheHandEditResumes(t *testing.T) {
	c := newHandEditConsole(t)
	c.approve()
	c.w.wait(&strings.Builder{}) // q: the program ended; the question is answered ErrClosed
	if a := c.automation(); a.Status != automations.StatusActive {
		t.Fatalf("closing the console paused the loop: %+v", a)
	}
	run, _ := wakeup.OpenRun(c.deps.Root, c.key)
	if _, err := run.Read(remediate.Phase(1) + "-00-edit-files.json"); err != nil {
		t.Fatalf("edit-files is not reserved: %v", err)
	}
	out, _, code := runLoopCLI(t, c.env, "wakeup", c.key)
	if code != 1 || !strings.Contains(out, "gh-prloop watch "+c.key) {
		t.Fatalf("headless wakeup: %d %q", code, out)
	}
	c.edit()
	m := c.w.console(c.key)
	m.SetSize(120, 40)
	c.m = m
	c.press("r")
	if v := m.View(); !strings.Contains(v, "REVIEW THE DIFF") {
		t.Fatalf("the reopened console did not resume at the diff:\n%s", v)
	}
	c.press("y")
	m.Wait()
	if cp := c.checkpoint(); cp.FixRounds != 1 {
		t.Fatalf("fix rounds %d", cp.FixRounds)
	}
}
