package local_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// CurrentRepository follows gh's rules over the repository's own remotes.
func TestCurrentRepositoryFollowsGhRules(t *testing.T) {
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	hosts := []string{"github.com"}
	for name, c := range map[string]struct {
		config [][2]string
		want   local.GitHubRepo
		fail   bool
	}{
		"origin over another":    {config: [][2]string{{"remote.fork.url", "https://github.com/me/widgets.git"}, {"remote.origin.url", "https://github.com/octo-org/widgets.git"}}, want: local.GitHubRepo{"github.com", "octo-org", "widgets"}},
		"upstream over origin":   {config: [][2]string{{"remote.origin.url", "git@github.com:me/widgets.git"}, {"remote.upstream.url", "ssh://git@github.com/octo-org/widgets"}}, want: local.GitHubRepo{"github.com", "octo-org", "widgets"}},
		"unknown host skipped":   {config: [][2]string{{"remote.upstream.url", "https://gitlab.example/x/y.git"}, {"remote.origin.url", "https://github.com/octo-org/widgets"}}, want: local.GitHubRepo{"github.com", "octo-org", "widgets"}},
		"gh-resolved wins":       {config: [][2]string{{"remote.origin.url", "https://github.com/me/widgets.git"}, {"remote.origin.gh-resolved", "octo-org/widgets"}}, want: local.GitHubRepo{"github.com", "octo-org", "widgets"}},
		"push URL when no fetch": {config: [][2]string{{"remote.origin.url", "/srv/mirror.git"}, {"remote.origin.pushurl", "https://github.com/octo-org/widgets.git"}}, want: local.GitHubRepo{"github.com", "octo-org", "widgets"}},
		"no remote":              {fail: true},
		"only a local path":      {config: [][2]string{{"remote.origin.url", "/srv/x.git"}}, fail: true},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			plainGit(t, dir, "init", "-q")
			for _, kv := range c.config {
				plainGit(t, dir, "config", "--add", kv[0], kv[1])
			}
			got, err := local.CurrentRepository(context.Background(), r, dir, hosts)
			if c.fail {
				if err == nil {
					t.Fatalf("resolved %+v, want an error", got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// The resolution runs git through the sanitized runner: the user's global
// configuration (a URL rewrite) and git's environment (GIT_TRACE) have no
// say in it.
func TestCurrentRepositoryIgnoresTheUserGitEnvironment(t *testing.T) {
	dir := t.TempDir()
	plainGit(t, dir, "init", "-q")
	plainGit(t, dir, "config", "remote.origin.url", "https://github.com/octo-org/widgets.git")
	home := t.TempDir()
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(global, []byte("[url \"https://github.com/evil/\"]\n\tinsteadOf = https://github.com/octo-org/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(home, "trace")
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_TRACE", trace)
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true", PassEnv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	got, err := local.CurrentRepository(context.Background(), r, dir, []string{"github.com"})
	if err != nil || got.Owner != "octo-org" {
		t.Fatalf("got %+v, %v; the global URL rewrite must not apply", got, err)
	}
	if _, err := os.Stat(trace); err == nil {
		t.Fatal("git ran with the user's GIT_TRACE")
	}
}
