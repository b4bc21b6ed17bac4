package watch

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/status"
)

// childMsg stands for the approval screen's own messages (its re-check,
// its record, its diffs).
type childMsg struct{}

type msgChild struct {
	fakeApproval
	got int
}

func (c *msgChild) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(childMsg); ok {
		c.got++
		return c, nil
	}
	return c.fakeApproval.Update(msg)
}

// The messages an approval screen's commands produce reach it: without
// them it would wait for its re-check forever.
func TestApprovalScreenGetsItsOwnMessages(t *testing.T) {
	scr := &msgChild{}
	m := syncModel(t, Config{Load: constant(awaitingApproval()), Approval: func(status.Loop) (Screen, error) { return scr, nil }}, 80, 24)
	if m.child == nil {
		t.Fatal("the approval screen did not open")
	}
	drive(t, m, func() tea.Msg { return childMsg{} })
	if scr.got != 1 {
		t.Fatalf("the approval screen got %d of its messages", scr.got)
	}
}

// hashChild is an approval screen that rebuilt its plan (a path added).
type hashChild struct {
	fakeApproval
	hash string
}

func (c *hashChild) PlanHash() string { return c.hash }

// A reload that shows the plan the open screen rebuilt itself does not
// replace that screen (its notice and state stay); another plan does.
func TestRebuiltPlanKeepsTheOpenScreen(t *testing.T) {
	l := awaitingApproval()
	opened := 0
	scr := &hashChild{hash: l.Next.PlanHash}
	m := syncModel(t, Config{Load: constant(l), Approval: func(status.Loop) (Screen, error) { opened++; return scr, nil }}, 80, 24)
	rebuilt := l
	rebuilt.Next.PlanHash = "sha256:rebuilt"
	scr.hash = rebuilt.Next.PlanHash
	drive(t, m, m.apply(rebuilt))
	if opened != 1 || m.child != Screen(scr) {
		t.Fatalf("the screen was reopened for its own rebuilt plan (%d)", opened)
	}
	other := l
	other.Next.PlanHash = "sha256:other"
	drive(t, m, m.apply(other))
	if opened != 2 {
		t.Fatalf("a plan rebuilt elsewhere did not reopen the screen (%d)", opened)
	}
}
