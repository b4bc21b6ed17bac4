package local_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/gitserver"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// The benchmark repository: 10,000 files in 100 directories, pushed to the
// HTTPS server, with 1,000 of them modified in the worktree.
const (
	benchFiles   = 10000
	benchDirs    = 100
	benchChanged = 1000
)

var bench struct {
	once   sync.Once
	err    error
	tmp    string
	srv    *gitserver.Server
	runner *gitx.Runner
	work   string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.srv != nil {
		bench.srv.Close()
	}
	if bench.tmp != "" {
		os.RemoveAll(bench.tmp)
	}
	os.Exit(code)
}

func benchRepo(b *testing.B) (*gitx.Runner, string, string) {
	b.Helper()
	bench.once.Do(func() { bench.err = buildBenchRepo(b) })
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.runner, bench.work, bench.srv.Host
}

func buildBenchRepo(b *testing.B) error {
	tmp, err := os.MkdirTemp("", "prloop-bench-")
	if err != nil {
		return err
	}
	bench.tmp = tmp
	srv, err := gitserver.Start(gitserver.Options{Token: testToken})
	if err != nil {
		return err
	}
	bench.srv = srv
	if _, err := srv.CreateRepo("octo", "big", "main"); err != nil {
		return err
	}
	helper, err := srv.CredentialHelper(tmp)
	if err != nil {
		return err
	}
	if bench.runner, err = gitx.New(gitx.Options{CAFile: srv.CAFile, CredentialHelper: helper}); err != nil {
		return err
	}
	work := filepath.Join(tmp, "work")
	bench.work = work
	for i := range benchFiles {
		p := filepath.Join(work, fmt.Sprintf("dir%03d", i%benchDirs), fmt.Sprintf("file %05d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("line one of %d\nline two\nline three\n", i)), 0o644); err != nil {
			return err
		}
	}
	plainGit(b, work, "init", "-q", "-b", "main")
	plainGit(b, work, "add", "-A")
	plainGit(b, work, "commit", "-qm", "big")
	url := srv.RepoURL("octo", "big")
	if _, err := bench.runner.Run(context.Background(), work, "push", "-q", url, "main:refs/heads/main"); err != nil {
		return err
	}
	plainGit(b, work, "remote", "add", "origin", url)
	plainGit(b, work, "config", "branch.main.remote", "origin")
	for i := 0; i < benchFiles; i += benchFiles / benchChanged {
		p := filepath.Join(work, fmt.Sprintf("dir%03d", i%benchDirs), fmt.Sprintf("file %05d.txt", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("changed %d\nline two\n", i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func BenchmarkObserve10k(b *testing.B) {
	r, work, host := benchRepo(b)
	opts := local.Options{Dir: work, Runner: r, Host: host}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		o, err := local.Observe(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(o.Paths) != benchChanged {
			b.Fatalf("%d changed paths, want %d", len(o.Paths), benchChanged)
		}
	}
}

// BenchmarkGitStatusPlusDiff is the reference: the two git commands a plain
// "what changed" look needs, through the same runner.
func BenchmarkGitStatusPlusDiff(b *testing.B) {
	r, work, _ := benchRepo(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Run(ctx, work, "status", "--porcelain=v2", "-z"); err != nil {
			b.Fatal(err)
		}
		h := sha256.New()
		if err := r.Stream(ctx, work, nil, h, "diff", "--binary"); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(h, "")
	}
}
