package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// report without --repo finds the repository from the checkout's remotes
// through the sanitized git runner: the user's global git configuration (a
// URL rewrite) and git environment (GIT_TRACE) change nothing, and GH_REPO
// still overrides, as in gh.
func TestReportRepositoryResolutionRunsGitSanitized(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "remote.origin.url", "https://github.com/octo-org/widgets.git"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	home := t.TempDir()
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(global, []byte("[url \"https://github.com/evil/\"]\n\tinsteadOf = https://github.com/octo-org/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(home, "trace")
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_TRACE", trace)
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	t.Setenv("GH_HOST", "github.com")
	t.Setenv("GH_REPO", "")
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"} {
		t.Setenv(k, "")
	}
	t.Chdir(dir)

	repo, err := currentRepo("")
	if err != nil || repo.String() != "octo-org/widgets" {
		t.Fatalf("resolved %v, %v; want octo-org/widgets from the repository's own remote", repo, err)
	}
	if _, err := os.Stat(trace); err == nil {
		t.Fatal("git ran with the user's environment (GIT_TRACE wrote a trace)")
	}

	t.Setenv("GH_REPO", "other-org/gadgets")
	if repo, err := currentRepo(""); err != nil || repo.String() != "other-org/gadgets" {
		t.Fatalf("GH_REPO: %v, %v", repo, err)
	}
}
