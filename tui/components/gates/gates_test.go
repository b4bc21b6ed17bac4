package gates

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"pass": "pass", "fail": "fail", "pending": "pending", "unknown": "unknown", "": "unknown", "PASS": "unknown", "APPROVED": "unknown"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBadgesAndWrapping(t *testing.T) {
	m := New(testutil.Styles())
	m.SetData(Data{Approvals: "pass", BranchProtection: "fail", Checks: "pending", Mergeability: "MERGEABLE"})
	m.SetSize(200, 0)
	v := m.View()
	want := "Gates  approvals ✓ pass   branch protection ✗ fail   checks … pending   mergeability ? unknown (MERGEABLE)"
	if v != want {
		t.Errorf("got  %q\nwant %q", v, want)
	}
	if m.Height() != 1 {
		t.Errorf("height %d at 200 cells", m.Height())
	}
	m.SetSize(60, 0)
	lines := strings.Split(m.View(), "\n")
	if len(lines) != m.Height() || len(lines) < 2 {
		t.Fatalf("expected wrapping at 60 cells, got %q", lines)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "       ") {
			t.Errorf("continuation not indented: %q", l)
		}
	}
	// No badge is split across lines.
	joined := strings.Join(lines, "\n")
	for _, b := range []string{"approvals ✓ pass", "branch protection ✗ fail", "checks … pending"} {
		if !strings.Contains(joined, b) {
			t.Errorf("badge %q split or missing:\n%s", b, joined)
		}
	}
}
