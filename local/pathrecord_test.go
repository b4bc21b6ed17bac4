package local_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// newWorktree is a bare-bones local repository (no remote needed).
func newWorktree(t *testing.T) (local.Worktree, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	plainGit(t, dir, "init", "-q", "-b", "main")
	r, err := gitx.New(gitx.Options{CredentialHelper: "!false"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := local.Discover(context.Background(), r, dir)
	if err != nil {
		t.Fatal(err)
	}
	return w, dir
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func record(t *testing.T, w local.Worktree, p string) schema.PathRecord {
	t.Helper()
	recs, err := w.PathRecords([]string{p})
	if err != nil {
		t.Fatalf("PathRecords(%q): %v", p, err)
	}
	return recs[0]
}

func TestPathRecordChangesWhenAComponentBecomesASymlink(t *testing.T) {
	w, dir := newWorktree(t)
	mustWrite(t, filepath.Join(dir, "a", "b", "f.txt"), "one\n")
	mustWrite(t, filepath.Join(dir, "real", "b", "f.txt"), "one\n")
	before := record(t, w, "a/b/f.txt")

	// Editing the file's content does not change its record (the diff
	// digest covers content): a record must survive the edit it guards.
	mustWrite(t, filepath.Join(dir, "a", "b", "f.txt"), "two\n")
	if r := record(t, w, "a/b/f.txt"); r != before {
		t.Fatal("a content edit changed the path record")
	}

	// Replace directory a with a symlink to a look-alike inside the tree.
	if err := os.RemoveAll(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	after := record(t, w, "a/b/f.txt")
	if after.LstatChainSHA256 == before.LstatChainSHA256 {
		t.Error("lstat chain unchanged after a component became a symlink")
	}
	if after.ResolvedTargetSHA256 == before.ResolvedTargetSHA256 {
		t.Error("resolved target unchanged although it is now real/b/f.txt")
	}
	if want := record(t, w, "real/b/f.txt").ResolvedTargetSHA256; after.ResolvedTargetSHA256 != want {
		t.Error("a/b/f.txt through the link does not resolve to real/b/f.txt")
	}
	if !after.InsideWorktree || !after.OutsideGitMetadata {
		t.Errorf("record %+v", after)
	}
}

func TestPathRecordOfMissingPathAndTypeChange(t *testing.T) {
	w, dir := newWorktree(t)
	missing := record(t, w, "gone/f.txt")
	mustWrite(t, filepath.Join(dir, "gone", "f.txt"), "x")
	present := record(t, w, "gone/f.txt")
	if missing == present {
		t.Fatal("a missing path and a present one have the same record")
	}
	if err := os.Remove(filepath.Join(dir, "gone", "f.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "gone", "f.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := record(t, w, "gone/f.txt"); r == present || r == missing {
		t.Fatal("a file turned directory kept its record")
	}
}

func TestPathRecordRefusals(t *testing.T) {
	w, dir := newWorktree(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(dir, "in", "f"), "x")
	for name, target := range map[string]string{
		"abs-out":   outside,
		"rel-out":   "../..",
		"abs-in":    filepath.Join(dir, "in"),
		"git-link":  ".git",
		"loop-a":    "loop-b",
		"loop-b":    "loop-a",
		"chain-out": "abs-out",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if record(t, w, "abs-in/f").ResolvedTargetSHA256 != record(t, w, "in/f").ResolvedTargetSHA256 {
		t.Error("an absolute symlink inside the worktree does not resolve to its target")
	}
	cases := map[string]string{
		"abs-out/x":      local.CodeSymlinkEscape,
		"abs-out":        local.CodeSymlinkEscape,
		"rel-out/x":      local.CodeSymlinkEscape,
		"chain-out/x":    local.CodeSymlinkEscape,
		"git-link/HEAD":  local.CodeGitMetadataPath,
		".git/config":    local.CodeGitMetadataPath,
		"sub/.GIT/x":     local.CodeGitMetadataPath,
		".git./x":        local.CodeGitMetadataPath,
		"GIT~1/config":   local.CodeGitMetadataPath,
		".g\u200cit/x":   local.CodeGitMetadataPath,
		"loop-a/x":       local.CodeSymlinkLoop,
		"":               local.CodeInvalidPath,
		"/etc/passwd":    local.CodeInvalidPath,
		"a/../b":         local.CodeInvalidPath,
		"a//b":           local.CodeInvalidPath,
		"trailing/":      local.CodeInvalidPath,
		"./x":            local.CodeInvalidPath,
		"bad\xffname":    local.CodeNonUTF8Path,
		".gitattributes": "",
		".github/x":      "",
	}
	for p, code := range cases {
		_, err := w.PathRecords([]string{p})
		if code == "" {
			if err != nil {
				t.Errorf("%q refused: %v", p, err)
			}
			continue
		}
		wantRefusal(t, err, code, "")
	}
	if _, err := w.PathRecords([]string{"x", "x"}); err == nil {
		t.Error("duplicate paths accepted")
	}
}
