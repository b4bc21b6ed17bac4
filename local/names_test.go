package local_test

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// The refusal test proves the filter does not run; this proves it would
// have, had the check not come first.
func TestCleanFilterRunsOnlyUnderAcceptedRisk(t *testing.T) {
	e := newEnv(t, nil)
	plainGit(t, e.work, "config", "filter.evil.clean", "touch "+e.path("FILTER-RAN")+"; cat")
	e.write(".gitattributes", "*.txt filter=evil\n")
	o := e.opts()
	o.AcceptRisk = true
	if _, err := local.Observe(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.path("FILTER-RAN")); err != nil {
		t.Fatal("the filter did not run under accepted risk, so the refusal test proves nothing")
	}
}

func TestNamesWithSpacesQuotesAndUnicode(t *testing.T) {
	e := newEnv(t, nil)
	names := []string{"with space.txt", "  leading spaces", "quote\"d.txt", "it's.txt", "-dash", "#hash", "dir/ü nicode.txt", "日本/語"}
	for _, n := range names {
		e.write(n, "content of "+n+"\n")
	}
	o := e.observe()
	want := append(slices.Clone(names), "a.txt")
	slices.Sort(want)
	if !slices.Equal(o.Paths, want) {
		t.Fatalf("paths %q, want %q", o.Paths, want)
	}
	for i, r := range o.PathRecords {
		if r.Path != o.Paths[i] || !r.InsideWorktree || !r.OutsideGitMetadata {
			t.Fatalf("record %d = %+v", i, r)
		}
	}
	assertChangesMatchCommit(t, e, o)
}

// Newlines, other control characters and backslashes come through git's -z
// output intact, but core's canonical path rule (validate.PathProblem) keeps
// them out of manifests, so observation refuses them up front, naming the
// exact bytes.
func TestNamesACanonicalPathCannotCarry(t *testing.T) {
	e := newEnv(t, nil)
	for _, n := range []string{"new\nline.txt", "tab\there", "cr\r.txt", "back\\slash", "dir/bell\a"} {
		e.write(n, "x\n")
		_, err := local.Observe(context.Background(), e.opts())
		wantRefusal(t, err, local.CodeInvalidPath, strings.Trim(strconv.QuoteToASCII(n), `"`))
		if err := os.RemoveAll(e.path(n)); err != nil {
			t.Fatal(err)
		}
	}
	e.observe()
}

func TestNonUTF8Names(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "alpha\n", "bad\xff.txt": "latin1\n"})
	// Unchanged, the name is only part of hashed observations: no refusal.
	o := e.observe()
	if !slices.Equal(o.Paths, []string{"a.txt"}) {
		t.Fatalf("paths %q", o.Paths)
	}
	before := o.WorktreeStatusSHA256
	// Changed, it would have to enter the manifest's paths, which are JSON
	// strings: refused, naming the bytes.
	e.write("bad\xff.txt", "changed\n")
	_, err := local.Observe(context.Background(), e.opts())
	wantRefusal(t, err, local.CodeNonUTF8Path, `bad\xff.txt`)
	// An untracked non-UTF-8 name is refused the same way.
	e.write("bad\xff.txt", "latin1\n")
	e.write("new\xfe", "x\n")
	_, err = local.Observe(context.Background(), e.opts())
	wantRefusal(t, err, local.CodeNonUTF8Path, `new\xfe`)
	if err := os.Remove(e.path("new\xfe")); err != nil {
		t.Fatal(err)
	}
	if o2 := e.observe(); o2.WorktreeStatusSHA256 != before {
		t.Fatal("status digest differs after restoring the worktree")
	}
}

// assertChangesMatchCommit stages and commits everything with plain git and
// checks that the observed change set is exactly the committed diff, which
// is what lets the post-write receipt recompute diff_sha256.
func assertChangesMatchCommit(t *testing.T, e *testEnv, o *local.Observation) {
	t.Helper()
	plainGit(t, e.work, "add", "-A")
	plainGit(t, e.work, "commit", "-qm", "all")
	out, err := gitOut(e.work, "diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", o.HeadSHA, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := gitx.SplitZ([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	var committed []local.Change
	for i := 0; i+1 < len(recs); i += 2 {
		f := strings.Fields(strings.TrimPrefix(string(recs[i]), ":"))
		c := local.Change{Path: recs[i+1], OldMode: f[0], NewMode: f[1], OldBlob: f[2], NewBlob: f[3]}
		if c.OldMode == "000000" {
			c.OldMode, c.OldBlob = "", ""
		}
		if c.NewMode == "000000" {
			c.NewMode, c.NewBlob = "", ""
		}
		committed = append(committed, c)
	}
	slices.SortFunc(committed, func(a, b local.Change) int { return bytes.Compare(a.Path, b.Path) })
	if len(committed) != len(o.Changes) {
		t.Fatalf("observed %d changes, commit has %d:\n%+v\n%+v", len(o.Changes), len(committed), o.Changes, committed)
	}
	for i := range committed {
		a, b := o.Changes[i], committed[i]
		if !bytes.Equal(a.Path, b.Path) || a.OldMode != b.OldMode || a.OldBlob != b.OldBlob || a.NewMode != b.NewMode || a.NewBlob != b.NewBlob {
			t.Errorf("change %d: observed %+v, committed %+v", i, a, b)
		}
	}
}

func TestChangesMatchTheCommitOfEveryKindOfChange(t *testing.T) {
	e := newEnv(t, map[string]string{
		"a.txt": "alpha\n", "del.txt": "gone\n", "staged.txt": "s\n", "exec.sh": "#!/bin/sh\n",
		"rm-cached.txt": "kept\n", "crlf.txt": "x\n", ".gitattributes": "crlf.txt text eol=lf\n",
		"reverted.txt": "same\n", "link-target.txt": "t\n",
	})
	if err := os.Remove(e.path("del.txt")); err != nil {
		t.Fatal(err)
	}
	e.write("staged.txt", "staged change\n")
	plainGit(t, e.work, "add", "staged.txt")
	e.write("staged.txt", "staged then changed again\n")
	if err := os.Chmod(e.path("exec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	plainGit(t, e.work, "rm", "-q", "--cached", "rm-cached.txt")
	e.write("crlf.txt", "with\r\ncrlf\r\n")
	e.write("reverted.txt", "changed\n")
	plainGit(t, e.work, "add", "reverted.txt")
	e.write("reverted.txt", "same\n")
	if err := os.Symlink("link-target.txt", e.path("new-link")); err != nil {
		t.Fatal(err)
	}
	e.write("sub dir/new file.txt", "new\n")
	e.write("intent.txt", "intent to add\n")
	plainGit(t, e.work, "add", "-N", "intent.txt")

	o := e.observe()
	want := []string{"a.txt", "crlf.txt", "del.txt", "exec.sh", "intent.txt", "new-link", "staged.txt", "sub dir/new file.txt"}
	if !slices.Equal(o.Paths, want) {
		t.Fatalf("paths %q, want %q", o.Paths, want)
	}
	assertChangesMatchCommit(t, e, o)
}
