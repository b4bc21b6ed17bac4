package header

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestHeader(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(100, Height)
	m.SetData(Data{Repository: "acme/w", Number: 9, Title: "Fix it", URL: "https://x/pull/9", State: "open", Draft: true,
		HeadSHA: "abcdef0123456789", BaseBranch: "main", HeadBranch: "fix", ObservedAt: "2025-01-01T00:00:00Z"})
	want := "acme/w#9  Fix it\nOPEN · DRAFT · head abcdef0 · main ← fix · observed 2025-01-01T00:00:00Z\nhttps://x/pull/9"
	if got := m.View(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestLongRepositoryCannotHideTitle(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(60, Height)
	m.SetData(Data{Repository: testutil.Long(5000), Number: 1, Title: "the real title"})
	first := strings.Split(m.View(), "\n")[0]
	if !strings.Contains(first, "the real") {
		t.Errorf("title pushed off the line: %q", first)
	}
	if n := strings.Count(m.View(), "\n"); n != Height-1 {
		t.Errorf("%d lines", n+1)
	}
}

// Where the line is too long for the date, the time of day is shown whole
// instead of a cut date.
func TestObservedTimeOfDayWhenNarrow(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(100, Height)
	m.SetData(Data{Repository: "octo-org/widgets", Number: 42, Title: "t", State: "open", Simulated: true,
		HeadSHA: "c0ffee5c0ffee5", BaseBranch: "main", HeadBranch: "feature/retry-budget", ObservedAt: "2026-12-01T16:50:27Z"})
	meta := strings.Split(m.View(), "\n")[1]
	if !strings.HasSuffix(meta, "observed 16:50:27Z") {
		t.Errorf("meta line %q, want it to end with the time of day", meta)
	}
}
