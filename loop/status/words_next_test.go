package status

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/evaluate"
)

// A halt says what a person can do: resume once the cause is fixed, or —
// merged, or out of fix rounds — end the loop; the loop is named as every
// KEY argument accepts it, OWNER/REPO#N, short enough for 80 columns.
func TestHaltNextAndRef(t *testing.T) {
	l := Loop{Key: "github-codex-pr-loop/o/r/pull/7/run/" + strings.Repeat("a", 32), Repository: "o/r", Number: 7}
	if l.Ref() != "o/r#7" {
		t.Fatalf("Ref %q", l.Ref())
	}
	if (Loop{Key: "k"}).Ref() != "k" {
		t.Fatal("a loop without its pull request is named by its key")
	}
	for reason, want := range map[string]string{
		evaluate.ReasonPRMerged:       "`gh-prloop automations delete o/r#7` ends the loop",
		evaluate.ReasonFixRoundLimit:  "finish the review by hand; `gh-prloop automations delete o/r#7` ends the loop",
		evaluate.ReasonPRClosed:       "fix the cause, then `gh-prloop automations resume o/r#7`",
		evaluate.ReasonRequestTimeout: "fix the cause, then `gh-prloop automations resume o/r#7`",
	} {
		if got := HaltNext(reason, l.Ref()); !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end %q", reason, got, want)
		}
	}
}
