package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// An accepted risk record is on the summary, one line per risk under RISK;
// under the safe isolation there is no such line.
func TestSummaryShowsEachAcceptedRisk(t *testing.T) {
	v := sampleView(t)
	var c calls
	plain := strings.Join(New(c.config(v, RecheckResult{}, ""), asciiStyles()).summaryLines(100), "\n")
	if strings.Contains(ansi.Strip(plain), "RISK ") {
		t.Fatalf("a safe plan shows a risk:\n%s", plain)
	}
	v.Risks = []string{"not given: no network access", "not given: writes confined"}
	lines := New(c.config(v, RecheckResult{}, ""), asciiStyles()).summaryLines(100)
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, r := range v.Risks {
		if !strings.Contains(text, r) {
			t.Fatalf("summary lacks %q:\n%s", r, text)
		}
	}
	if !strings.Contains(text, "RISK") {
		t.Fatalf("no RISK label:\n%s", text)
	}
}
