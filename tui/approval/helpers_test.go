package approval

import (
	"context"
	"github.com/charmbracelet/x/ansi"
	"github.com/prloop/gh-prloop/tui/testutil"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/tui/theme"
)

// asciiStyles pins the colour profile to ASCII so rendered screens are
// plain text and byte-for-byte stable.
func asciiStyles() *theme.Styles {
	s := theme.New(theme.NewRenderer(io.Discard, false), theme.Default())
	return &s
}

// fixtureDoc returns a valid initial document (canon Value) and its bytes.
func fixtureDoc(t testing.TB, mutate func(doc map[string]any)) (map[string]any, []byte) {
	t.Helper()
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	if mutate != nil {
		mutate(doc)
		fixture.RecomputeInitial(doc)
	}
	data, err := canon.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, data
}

func decode(t testing.TB, doc map[string]any) schema.InitialDocument {
	t.Helper()
	var errs problems.List
	d := schema.DecodeInitialDocument(doc, "", &errs)
	if len(errs) != 0 {
		t.Fatalf("fixture does not decode: %v", errs)
	}
	return d
}

// sampleView is the fixture plan with two files, one of them hostile.
func sampleView(t testing.TB) View {
	t.Helper()
	doc, data := fixtureDoc(t, nil)
	v := FromDocument(decode(t, doc), data)
	v.Title = fixture.InitialPRTitle
	v.Approver = "octocat"
	v.Author = "Mona Lisa <mona@example.com>"
	var old, nw strings.Builder
	for i := 1; i <= 40; i++ {
		line := "line " + itoa(i) + "\n"
		old.WriteString(line)
		if i == 20 {
			nw.WriteString("line 20, changed\n")
			continue
		}
		nw.WriteString(line)
	}
	v.Files = bindFiles(
		File{Path: "README.md", Old: "# Hello wrold\n\nSee docs.\n", New: "# Hello world\n\nSee docs.\n"},
		File{Path: "src/long.txt", Old: old.String(), New: nw.String()},
		File{Path: "docs/new.md", Status: Added, New: "brand new\n"},
	)
	return v
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// calls records what the console asked of the caller, from any goroutine.
type calls struct {
	mu              sync.Mutex
	recheck, record int
}

func (c *calls) counts() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recheck, c.record
}

func (c *calls) config(v View, res RecheckResult, statement string) Config {
	return Config{
		View: v,
		Recheck: func(context.Context) (RecheckResult, error) {
			c.mu.Lock()
			c.recheck++
			c.mu.Unlock()
			return res, nil
		},
		Record: func(context.Context) (string, error) {
			c.mu.Lock()
			c.record++
			c.mu.Unlock()
			return statement, nil
		},
	}
}

func lipglossWidth(s string) int { return ansi.StringWidth(s) }

// hostile is remote text built to attack a terminal (testutil.Hostile).
func hostile(label string) string { return testutil.Hostile(label) }

// unsafeText reports the first thing in a rendered screen that must not
// reach a terminal. The screens are rendered without colour, so no escape
// at all is allowed.
func unsafeText(s string) string { return testutil.Unsafe(s, true, false) }

// hostileView puts hostile text in every string the console shows.
func hostileView(t testing.TB) View {
	v := sampleView(t)
	v.Repository = hostile("repo")
	v.Host = hostile("host")
	v.RemoteName = hostile("remote")
	v.BaseBranch = hostile("base")
	v.HeadBranch = hostile("head")
	v.BaseSHA = hostile("basesha")
	v.HeadSHA = hostile("headsha")
	v.Mode = hostile("mode")
	v.RunID = hostile("run")
	v.Title = hostile("title")
	v.Approver = hostile("approver")
	v.Author = hostile("author")
	v.Posture = []string{hostile("posture1"), hostile("posture2")}
	v.Commands = [][]string{{hostile("cmd"), hostile("arg")}}
	v.Operations = []Operation{{Name: hostile("op"), Description: hostile("desc")}}
	v.Files = bindFiles(
		File{Path: hostile("path1"), Old: hostile("old1") + "\n", New: hostile("new1") + "\n"},
		File{Path: hostile("path2"), Old: "", New: "\t\tindented " + hostile("new2") + "\r\nx"},
	)
	return v
}

// bindFiles gives each file the blob ids of its own sides, as a plan built
// from the same bytes would (SHA-1 object format).
func bindFiles(files ...File) []File {
	sha1Like := strings.Repeat("0", 40)
	for i, f := range files {
		if f.Status != Added {
			files[i].OldBlob = gitBlobID(sha1Like, f.Old)
		}
		if f.Status != Deleted {
			files[i].NewBlob = gitBlobID(sha1Like, f.New)
		}
	}
	return files
}

// settle runs the console's own background work (the lazy diffs) to the
// end, as the program would between frames.
func settle(m *Model) {
	for cmd := m.Init(); cmd != nil; {
		_, cmd = m.Update(cmd())
	}
}
