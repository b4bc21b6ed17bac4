package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/testutil"
)

// The resulting diff of an edit is drawn like a plan's file: numbered
// +/- lines from the hunk headers, every byte shown (hidden and control
// characters escaped, paths in headers too), long lines wrapped, and the
// counts right.
func TestUnifiedDiffShowsEveryByte(t *testing.T) {
	long := testutil.Long(200)
	diff := "diff --git a/ev\u202eil.go b/ev\u202eil.go\n" +
		"index 1111111..2222222 100644\n" +
		"--- a/ev\u202eil.go\n+++ b/ev\u202eil.go\n" +
		"@@ -10,3 +10,3 @@ func f() {\n" +
		" keep\n" +
		"-old \x1b[2Jline\n" +
		"+new \u200bline " + long + "\n" +
		" tail\n" +
		"\\ No newline at end of file\n"
	rows, hidden, added, removed := UnifiedDiff(asciiStyles(), []byte(diff), 60)
	if added != 1 || removed != 1 {
		t.Errorf("counts +%d -%d", added, removed)
	}
	if hidden != 6 { // U+202E in four headers, ESC, U+200B
		t.Errorf("hidden %d", hidden)
	}
	screen := strings.Join(rows, "\n")
	if why := testutil.Unsafe(screen, true, false); why != "" {
		t.Fatalf("unsafe output: %s\n%s", why, screen)
	}
	for _, want := range []string{"ev⟨U+202E⟩il.go", "10   keep", "11 - old ⟨U+001B⟩[2Jline", "11 + new ⟨U+200B⟩line", "12   tail", "No newline"} {
		if !strings.Contains(screen, want) {
			t.Errorf("missing %q in\n%s", want, screen)
		}
	}
	if got := strings.Count(strings.ReplaceAll(screen, "\n", ""), "W"); got != 200 {
		t.Errorf("the long line shows %d of its 200 cells", got)
	}
	for _, r := range rows {
		if ansi.StringWidth(r) > 60 {
			t.Errorf("row wider than 60: %q", r)
		}
	}
}
