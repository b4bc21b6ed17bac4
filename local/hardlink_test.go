package local_test

import (
	"context"
	"os"
	"testing"

	"github.com/prloop/gh-prloop/local"
)

// A changed path that is a hard link to a file in git metadata is refused,
// whatever its name: new (untracked) or replacing a tracked file.
func TestHardLinkIntoGitMetadataIsRefused(t *testing.T) {
	for name, c := range map[string]struct{ link, target string }{
		"new file linked to .git/config":          {"cfg-copy", ".git/config"},
		"tracked file replaced by a link to HEAD": {"dir/b.txt", ".git/HEAD"},
		"link to the index":                       {"notes/index.bak", ".git/index"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			if err := os.MkdirAll(e.path("notes"), 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.Remove(e.path(c.link))
			if err := os.Link(e.path(c.target), e.path(c.link)); err != nil {
				t.Fatal(err)
			}
			obs, err := local.Observe(context.Background(), e.opts())
			if err == nil {
				t.Fatalf("Observe succeeded: paths %q", obs.Paths)
			}
			wantRefusal(t, err, local.CodeGitMetadataPath, `"`+c.link+`" is the same file as`)
			wantRefusal(t, err, local.CodeGitMetadataPath, c.target[len(".git/"):])
		})
	}
}

// A hard link between two worktree files is an ordinary change: only git
// metadata is off limits.
func TestHardLinkWithinTheWorktreeIsAccepted(t *testing.T) {
	e := newEnv(t, nil)
	if err := os.Link(e.path("a.txt"), e.path("a-copy.txt")); err != nil {
		t.Fatal(err)
	}
	obs, err := local.Observe(context.Background(), e.opts())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range obs.Paths {
		found = found || p == "a-copy.txt"
	}
	if !found {
		t.Fatalf("paths %q lack a-copy.txt", obs.Paths)
	}
}
