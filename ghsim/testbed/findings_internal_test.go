package testbed

import (
	"fmt"
	"strings"
	"testing"
)

// committedHead is every file of the head a loop works on after `start`:
// the base, the feature commit, and the pending change.
func committedHead() map[string]string {
	files := BaseFiles()
	for k, v := range FeatureFiles() {
		files[k] = v
	}
	files[ModifiedFile] = clientGoWithBudget
	files[UntrackedFile] = budgetTestGo
	delete(files, DeletedFile)
	return files
}

// Every round's findings point at a real, non-blank line of a file the
// change commits, and no two findings of any rounds share a title or a
// position, so a fixer can act on each and the loop's rounds stay
// distinguishable.
func TestRoundFindingsPointAtRealLinesAndDiffer(t *testing.T) {
	files := committedHead()
	titles := map[string]int{}
	positions := map[string]int{}
	for round := range 3 * len(roundFindings) {
		fs := RoundFindings(round)
		if len(fs) == 0 {
			t.Fatalf("round %d has no findings", round)
		}
		for _, f := range fs {
			content, ok := files[f.Path]
			if !ok {
				t.Fatalf("round %d: %s is not in the committed head", round, f.Path)
			}
			lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
			if f.Line < 1 || f.Line > len(lines) || strings.TrimSpace(lines[f.Line-1]) == "" {
				t.Fatalf("round %d: %s:%d is not a real line", round, f.Path, f.Line)
			}
			if prev, dup := titles[f.Title]; dup {
				t.Fatalf("round %d repeats round %d's title %q", round, prev, f.Title)
			}
			titles[f.Title] = round
			if round < len(roundFindings) {
				pos := fmt.Sprintf("%s:%d", f.Path, f.Line)
				if prev, dup := positions[pos]; dup {
					t.Fatalf("round %d repeats round %d's position %s", round, prev, pos)
				}
				positions[pos] = round
			}
		}
	}
	if RoundFindings(0)[0].Title == RoundFindings(len(roundFindings))[0].Title {
		t.Fatal("a later round reuses a title")
	}
}
