package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/gitx"
)

// The author plan and start show is the checkout's own user.name/user.email
// when both are set locally; a global identity is not read (the runner is
// sanitized), so without a local one it is the account's noreply address.
func TestCommitAuthorShownIsLocalIdentityElseNoreply(t *testing.T) {
	dir := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	gitIn("init", "-q")
	home := t.TempDir()
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = Global Person\n\temail = global@example.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	r, err := gitx.New(gitx.Options{PassEnv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if got, want := commitAuthor(ctx, r, dir, "octocat", 583231), "octocat <583231+octocat@users.noreply.github.com>"; got != want {
		t.Fatalf("without a local identity: %q, want %q", got, want)
	}
	gitIn("config", "--local", "user.name", "Mona Lisa")
	gitIn("config", "--local", "user.email", "mona@example.com")
	if got, want := commitAuthor(ctx, r, dir, "octocat", 583231), "Mona Lisa <mona@example.com>"; got != want {
		t.Fatalf("with a local identity: %q, want %q", got, want)
	}
}
