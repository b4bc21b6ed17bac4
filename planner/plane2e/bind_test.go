package plane2e

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/prloop/gh-prloop/planner"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/tui/approval"
)

// Break 1, end to end with real git: content X when the plan is built, Y
// when the console reads the files to show them, X again when the console
// re-checks. The rebuilt plan hash equals the approved one, so without the
// binding the human would approve X having read Y. The console hashes what
// it shows, finds it is not the plan's blob, and refuses before any
// re-check; nothing is recorded.
func TestContentSwappedWhileShownIsRefused(t *testing.T) {
	w := newWorld(t)
	path := w.bed.Path(testbed.ModifiedFile)
	x, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := w.mustBuild()
	writeFile(t, path, string(x)+"// Y: shown but never planned\n")
	tm := w.console(p, "✗ "+testbed.ModifiedFile)
	writeFile(t, path, string(x))
	if q := w.mustBuild(); q.PlanHash != p.PlanHash {
		t.Fatal("restoring X must restore the plan hash, or the case proves nothing")
	}
	approve(tm, p.PlanHash)
	w.waitScreen(tm, approval.Refusal+": "+testbed.ModifiedFile+" changed since the plan was built")
	tm.Send(escKey)
	if r := w.finish(tm, false); r.Outcome != approval.Cancelled {
		t.Fatalf("outcome %v", r.Outcome)
	}
	if n := w.rechecks.Load(); n != 0 {
		t.Fatalf("%d re-checks; the refusal comes first", n)
	}
	w.assertNothingRecorded()
}

// The files the console is given are the plan's blobs when nothing
// changed, including a file git converts when staging (CRLF under
// text=auto): git is asked which id these very bytes get at that path.
func TestFilesAreBoundWhenUnchanged(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.bed.Path(".gitattributes"), "*.txt text eol=lf\n")
	writeFile(t, w.bed.Path("notes.txt"), "one\r\ntwo\r\n")
	p := w.mustBuild()
	files, err := filesOf(w, p)
	if err != nil {
		t.Fatal(err)
	}
	converted := false
	for _, f := range files {
		if f.NewStagedBlob != "" {
			converted = true
			if !strings.HasSuffix(f.Path, ".txt") {
				t.Errorf("%s: unexpected conversion", f.Path)
			}
		}
	}
	if !converted {
		t.Fatal("the CRLF file was not hashed through git's conversion")
	}
	tm := w.console(p)
	approve(tm, p.PlanHash)
	if r := w.finish(tm, false); r.Outcome != approval.Approved {
		t.Fatalf("outcome %v (%v)", r.Outcome, r.Err)
	}
}

var escKey = tea.KeyMsg{Type: tea.KeyEsc}

func filesOf(w *world, p *planner.Plan) ([]approval.File, error) {
	return planner.Files(context.Background(), w.bed.Runner, p)
}

// Break 2: binary is decided by content (a NUL byte), not size: a text
// file over 1 MiB is loaded and shown as text, whole, and still bound.
func TestLargeTextIsTextAndNULIsBinary(t *testing.T) {
	w := newWorld(t)
	big := strings.Repeat("a line of ordinary text that is approved\n", 30000) // 1.2 MB
	writeFile(t, w.bed.Path("big.txt"), big)
	writeFile(t, w.bed.Path("blob.dat"), "ab\x00cd")
	p := w.mustBuild()
	files, err := filesOf(w, p)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		switch f.Path {
		case "big.txt":
			seen++
			if f.Binary || f.New != big {
				t.Errorf("big.txt: binary %v, %d bytes loaded", f.Binary, len(f.New))
			}
		case "blob.dat":
			seen++
			if !f.Binary {
				t.Error("a NUL byte makes a file binary")
			}
		}
	}
	if seen != 2 {
		t.Fatalf("files %d", seen)
	}
	tm := w.console(p)
	approve(tm, p.PlanHash)
	if r := w.finish(tm, false); r.Outcome != approval.Approved {
		t.Fatalf("outcome %v (%v)", r.Outcome, r.Err)
	}
}

// Issue 10 item 3: a drift names the files that changed, not only the
// digest that covers them.
func TestDriftNamesTheChangedFile(t *testing.T) {
	w := newWorld(t)
	p := w.mustBuild()
	tm := w.console(p)
	writeFile(t, w.bed.Path(testbed.ModifiedFile), "package httpclient\n\n// edited after display\n")
	approve(tm, p.PlanHash)
	w.waitScreen(tm, testbed.ModifiedFile+" (content changed)")
	r := w.finish(tm, true)
	if r.Outcome != approval.Drift || len(r.Files) != 1 || r.Files[0] != testbed.ModifiedFile+" (content changed)" {
		t.Fatalf("outcome %v, files %q", r.Outcome, r.Files)
	}
	w.assertNothingRecorded()
}
