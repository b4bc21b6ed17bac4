package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The commit author is on the summary under "author", so the approver sees
// whose name the plan's commits will carry; without one there is no row.
func TestSummaryShowsTheCommitAuthor(t *testing.T) {
	v := sampleView(t)
	var c calls
	for _, author := range []string{"Mona Lisa <mona@example.com>", "octocat <583231+octocat@users.noreply.github.com>"} {
		v.Author = author
		text := ansi.Strip(strings.Join(New(c.config(v, RecheckResult{}, ""), asciiStyles()).summaryLines(100), "\n"))
		if !strings.Contains(text, "author") || !strings.Contains(text, author) {
			t.Fatalf("summary lacks the author row %q:\n%s", author, text)
		}
	}
	v.Author = ""
	text := ansi.Strip(strings.Join(New(c.config(v, RecheckResult{}, ""), asciiStyles()).summaryLines(100), "\n"))
	if strings.Contains(text, "author ") {
		t.Fatalf("an unknown author shows a row:\n%s", text)
	}
}
