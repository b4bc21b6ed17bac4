package gitserver_test

import (
	"context"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/gitserver"
	"github.com/prloop/gh-prloop/gitx"
)

// plainGit runs the host git for test setup only (never the product path).
func plainGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func runner(t *testing.T, srv *gitserver.Server, helper string) *gitx.Runner {
	t.Helper()
	r, err := gitx.New(gitx.Options{CAFile: srv.CAFile, CredentialHelper: helper})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPushAndLsRemoteOverHTTPSWithToken(t *testing.T) {
	const token = "ghs_testtoken0123456789abcdefABCDEF"
	srv, err := gitserver.Start(gitserver.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.CreateRepo("octo", "hello", "main"); err != nil {
		t.Fatal(err)
	}
	helper, err := srv.CredentialHelper(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(helper, token) {
		t.Fatal("helper value contains the token")
	}

	work := t.TempDir()
	plainGit(t, work, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plainGit(t, work, "add", "f")
	plainGit(t, work, "commit", "-qm", "one")
	head := plainGit(t, work, "rev-parse", "HEAD")

	ctx := context.Background()
	r := runner(t, srv, helper)
	if _, err := r.Run(ctx, work, "push", srv.RepoURL("octo", "hello"), "main:refs/heads/main"); err != nil {
		t.Fatalf("push: %v", err)
	}
	if srv.Pushes() != 1 {
		t.Fatalf("pushes = %d, want 1", srv.Pushes())
	}
	out, err := r.Run(ctx, work, "ls-remote", srv.RepoURL("octo", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), head+"\trefs/heads/main") {
		t.Fatalf("ls-remote does not show the pushed head:\n%s", out)
	}
	if got := plainGit(t, srv.RepoDir("octo", "hello"), "rev-parse", "refs/heads/main"); got != head {
		t.Fatalf("bare repo main = %s, want %s", got, head)
	}

	// A wrong token is refused, and the error names neither token.
	badDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(badDir, "h.sh"), []byte("#!/bin/sh\necho username=x\necho password=ghs_wrongwrongwrongwrongwrong1234\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := runner(t, srv, "!"+filepath.Join(badDir, "h.sh"))
	_, err = bad.Run(ctx, work, "ls-remote", srv.RepoURL("octo", "hello"))
	if err == nil {
		t.Fatal("ls-remote with a wrong token succeeded")
	}
	if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "ghs_wrong") {
		t.Fatalf("error leaks a token: %v", err)
	}
}

func TestPlainHTTPAndOtherProtocolsAreRefusedByTheRunner(t *testing.T) {
	srv, err := gitserver.Start(gitserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.CreateRepo("o", "r", "main"); err != nil {
		t.Fatal(err)
	}
	r := runner(t, srv, "")
	ctx := context.Background()
	dir := t.TempDir()
	// Anonymous read works without a token...
	if _, err := r.Run(ctx, dir, "ls-remote", srv.RepoURL("o", "r")); err != nil {
		t.Fatalf("anonymous ls-remote: %v", err)
	}
	// ...but the same repository through the file protocol is refused.
	for _, url := range []string{"file://" + srv.RepoDir("o", "r"), srv.RepoDir("o", "r"), "http://" + srv.Host + "/o/r.git"} {
		_, err := r.Run(ctx, dir, "ls-remote", url)
		if err == nil || !strings.Contains(err.Error(), "not allowed") {
			t.Errorf("ls-remote %s: err = %v, want a transport refusal", url, err)
		}
	}
}

func TestCreateRepoRejectsBadNames(t *testing.T) {
	srv, err := gitserver.Start(gitserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, name := range []string{"../x", "a/b", "x.git", ""} {
		if _, err := srv.CreateRepo("o", name, "main"); err == nil {
			t.Errorf("CreateRepo(%q) succeeded", name)
		}
	}
	if _, err := srv.CreateRepo("o", "r", "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateRepo("o", "r", "main"); err == nil {
		t.Error("CreateRepo of an existing repository succeeded")
	}
}

// git sends a request body larger than http.postBuffer (1 MiB by default)
// with chunked transfer encoding and no Content-Length; the server must
// take it like GitHub does.
func TestPushLargerThanPostBufferIsChunkedAndAccepted(t *testing.T) {
	const token = "ghs_testtoken0123456789abcdefABCDEF"
	srv, err := gitserver.Start(gitserver.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.CreateRepo("octo", "big", "main"); err != nil {
		t.Fatal(err)
	}
	helper, err := srv.CredentialHelper(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	plainGit(t, work, "init", "-q", "-b", "main")
	// Incompressible, so the pack really is over 2 MiB.
	blob := make([]byte, 3<<20)
	if _, err := rand.Read(blob); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "blob.bin"), blob, 0o644); err != nil {
		t.Fatal(err)
	}
	plainGit(t, work, "add", "blob.bin")
	plainGit(t, work, "commit", "-qm", "big")
	head := plainGit(t, work, "rev-parse", "HEAD")

	r := runner(t, srv, helper)
	if _, err := r.Run(context.Background(), work, "push", srv.RepoURL("octo", "big"), "main:refs/heads/main"); err != nil {
		t.Fatalf("push of a 3 MiB pack: %v", err)
	}
	if got := plainGit(t, srv.RepoDir("octo", "big"), "rev-parse", "refs/heads/main"); got != head {
		t.Fatalf("server main = %s, pushed %s", got, head)
	}
	if srv.ChunkedPushes() == 0 {
		t.Fatal("the push was not sent chunked; the test does not exercise what it claims")
	}
}
