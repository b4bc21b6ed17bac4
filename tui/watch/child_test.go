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
