package local_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/ghsim/gitserver"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// testEnv is a real checkout whose origin is served over HTTPS by gitserver.
type testEnv struct {
	t      testing.TB
	srv    *gitserver.Server
	runner *gitx.Runner
	work   string
}

const testToken = "ghs_localtestToken0123456789ABCDEFabcdef"

// setupGitEnv is the environment of test-setup git commands only; the code
// under test always runs git through gitx.
func setupGitEnv() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=/dev/null", "LANG=C",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	}
}

func plainGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = setupGitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func startServer(t testing.TB) *gitserver.Server {
	t.Helper()
	srv, err := gitserver.Start(gitserver.Options{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func newRunner(t testing.TB, srv *gitserver.Server) *gitx.Runner {
	t.Helper()
	helper, err := srv.CredentialHelper(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, err := gitx.New(gitx.Options{CAFile: srv.CAFile, CredentialHelper: helper})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newEnv makes octo/demo on the server with files, a clone-like checkout on
// main tracking origin, and one pre-existing unstaged modification (a.txt).
func newEnv(t testing.TB, files map[string]string) *testEnv {
	t.Helper()
	srv := startServer(t)
	e := &testEnv{t: t, srv: srv, runner: newRunner(t, srv), work: filepath.Join(t.TempDir(), "work")}
	if _, err := srv.CreateRepo("octo", "demo", "main"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(e.work, 0o755); err != nil {
		t.Fatal(err)
	}
	plainGit(t, e.work, "init", "-q", "-b", "main")
	if files == nil {
		files = map[string]string{
			"a.txt":          "alpha\n",
			"dir/b.txt":      "bravo\n",
			"with space.txt": "space\n",
			".gitattributes": "*.bin binary\n",
		}
	}
	for p, c := range files {
		e.write(p, c)
	}
	plainGit(t, e.work, "add", "-A")
	plainGit(t, e.work, "commit", "-qm", "initial")
	e.push(e.work, "main")
	plainGit(t, e.work, "remote", "add", "origin", srv.RepoURL("octo", "demo"))
	plainGit(t, e.work, "config", "branch.main.remote", "origin")
	plainGit(t, e.work, "config", "branch.main.merge", "refs/heads/main")
	if _, ok := files["a.txt"]; ok {
		e.write("a.txt", "alpha\nmodified\n")
	}
	return e
}

func (e *testEnv) push(dir, branch string) {
	e.t.Helper()
	if _, err := e.runner.Run(context.Background(), dir, "push", "-q", e.srv.RepoURL("octo", "demo"), branch+":refs/heads/"+branch); err != nil {
		e.t.Fatalf("push: %v", err)
	}
}

func (e *testEnv) path(p string) string { return filepath.Join(e.work, filepath.FromSlash(p)) }

func (e *testEnv) write(p, content string) {
	e.t.Helper()
	full := e.path(p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *testEnv) opts() local.Options {
	return local.Options{Dir: e.work, Runner: e.runner, Host: e.srv.Host}
}

func (e *testEnv) observe() *local.Observation {
	e.t.Helper()
	o, err := local.Observe(context.Background(), e.opts())
	if err != nil {
		e.t.Fatalf("Observe: %v", err)
	}
	return o
}

// digests names every value of an observation that a plan binds.
func digests(t testing.TB, o *local.Observation) map[string]string {
	t.Helper()
	paths, err := canon.HashValue(o.Paths)
	if err != nil {
		t.Fatal(err)
	}
	records, err := canon.HashValue(o.PathRecords)
	if err != nil {
		t.Fatal(err)
	}
	g := o.Boundary.Git
	return map[string]string{
		"base_sha":       o.BaseSHA,
		"head_sha":       o.HeadSHA,
		"remote_name":    o.RemoteName,
		"repository":     o.Repository,
		"remote_refs":    o.RemoteRefsSHA256,
		"diff":           o.DiffSHA256,
		"status":         o.WorktreeStatusSHA256,
		"paths":          paths,
		"path_records":   records,
		"config":         g.ConfigSnapshotSHA256,
		"attributes":     g.AttributesSnapshotSHA256,
		"metadata":       g.GitMetadataSnapshotSHA256,
		"invocation":     g.InvocationSHA256,
		"transport_url":  g.TransportURLSHA256,
		"read_scope":     o.Boundary.FilesystemReadScopeSHA256,
		"write_scope":    o.Boundary.FilesystemWriteScopeSHA256,
		"active_filters": strings.Join(g.ActiveCleanFilters, ","),
	}
}

func changedKeys(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	return out
}

// gitOut runs setup git and returns its combined output and error.
func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = setupGitEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// blobOf is git's blob id of content, computed by git itself.
func blobOf(t testing.TB, content string) string {
	t.Helper()
	cmd := exec.Command("git", "hash-object", "--stdin")
	cmd.Env = setupGitEnv()
	cmd.Stdin = strings.NewReader(content)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
