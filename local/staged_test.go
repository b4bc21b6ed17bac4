package local_test

import (
	"context"
	"os"
	"testing"

	"github.com/prloop/gh-prloop/local"
)

// What `git add -A` stages hashes, in the index, exactly to the
// diff_sha256 observed from the worktree; one more staged path, or one
// fewer, changes the digest. The executor relies on this before it commits.
func TestStagedDiffMatchesTheObservedChange(t *testing.T) {
	e := newEnv(t, nil)
	e.write("new dir/new.txt", "new\n")
	if err := os.Remove(e.path("dir/b.txt")); err != nil {
		t.Fatal(err)
	}
	o := e.observe()
	ctx := context.Background()
	staged, err := local.StagedDiffSHA256(ctx, e.runner, e.work, o.HeadSHA)
	if err != nil {
		t.Fatal(err)
	}
	if staged == o.DiffSHA256 {
		t.Fatal("nothing is staged yet, but the index already hashes to the pending change")
	}
	plainGit(t, e.work, "add", "-A", "--", "a.txt", "new dir/new.txt")
	if partial, _ := local.StagedDiffSHA256(ctx, e.runner, e.work, o.HeadSHA); partial == o.DiffSHA256 {
		t.Fatal("a partial staging hashes to the whole change")
	}
	plainGit(t, e.work, "add", "-A", "--", "dir/b.txt")
	if staged, err = local.StagedDiffSHA256(ctx, e.runner, e.work, o.HeadSHA); err != nil || staged != o.DiffSHA256 {
		t.Fatalf("staged %s (%v), observed diff_sha256 %s", staged, err, o.DiffSHA256)
	}
	e.write("extra.txt", "x\n")
	plainGit(t, e.work, "add", "--", "extra.txt")
	if extra, _ := local.StagedDiffSHA256(ctx, e.runner, e.work, o.HeadSHA); extra == o.DiffSHA256 {
		t.Fatal("an extra staged path must change the digest")
	}
}
