package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/testutil"
)

// Consecutive wakeups that decided the same thing are one line that counts
// them and adds up their cost; a different decision, or an operation in
// between, starts a new line, and nothing else is merged.
func TestHistoryFoldsRepeatedWakeups(t *testing.T) {
	st := testutil.Styles()
	at := func(min int) time.Time { return time.Date(2026, 3, 2, 10, min, 0, 0, time.UTC) }
	wait := func(min int) status.Entry {
		return status.Entry{Time: at(min), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Requests: 1, Points: 1}
	}
	h := []status.Entry{
		wait(0), wait(2), wait(4),
		{Time: at(6), Kind: status.EntryWakeup, Action: "plan-remediation", Reason: "findings", Points: 1},
		{Time: at(6), Kind: status.EntryOperation, Op: "commit", Receipt: "0123456"},
		{Time: at(6), Kind: status.EntryOperation, Op: "commit", Receipt: "0123456"},
		wait(8),
		{Time: at(10), Kind: status.EntryWakeup, Action: "wait", Reason: "awaiting-response", Message: "other words", Points: 1},
	}
	lines := historyLines(st, h, 120)
	want := []string{
		"10:10:00  wakeup wait (awaiting-response) · 0 requests, 1 point — other words",
		"10:08:00  wakeup wait (awaiting-response) · 1 request, 1 point",
		"10:06:00  ✓ commit  0123456",
		"10:06:00  ✓ commit  0123456",
		"10:06:00  wakeup plan-remediation (findings) · 0 requests, 1 point",
		"10:04:00  wakeup wait (awaiting-response) ×3 since 10:00:00 · 3 requests, 3 points",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i := range want {
		if got := strings.TrimRight(lines[i], " "); got != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i, got, want[i])
		}
	}
	// Where "since" does not fit, the count and the cost still do.
	narrow := historyLines(st, h[:3], 70)
	if len(narrow) != 1 || !strings.Contains(narrow[0], "×3 · 3 requests, 3 points") {
		t.Fatalf("narrow: %q", narrow)
	}
}
