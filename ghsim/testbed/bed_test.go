package testbed_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/planner"
)

func newBed(t *testing.T) *testbed.Bed {
	t.Helper()
	b, err := testbed.New(context.Background(), testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// The point of a bed is that both halves of GitHub tell the same story.
func TestBothHalvesAgree(t *testing.T) {
	b := newBed(t)
	ctx := context.Background()
	origin, err := b.Setup(b.Checkout, "config", "remote.origin.url")
	if err != nil {
		t.Fatal(err)
	}
	if origin != b.RepoURL() || !strings.HasPrefix(origin, "https://"+b.Host+"/"+testbed.Repository) {
		t.Fatalf("origin %q, repo URL %q, host %q", origin, b.RepoURL(), b.Host)
	}
	out, err := b.Runner.Run(ctx, b.Checkout, "ls-remote", "origin")
	if err != nil {
		t.Fatal(err)
	}
	repo := ghclient.Repo{Owner: testbed.Owner, Name: testbed.Name}
	for _, branch := range []string{testbed.BaseBranch, testbed.HeadBranch} {
		tip, _, err := b.Client.BranchTip(ctx, repo, branch)
		if err != nil {
			t.Fatalf("simulator %s: %v", branch, err)
		}
		if !strings.Contains(string(out), tip+"\trefs/heads/"+branch+"\n") {
			t.Fatalf("simulator says %s is at %s; the git server says:\n%s", branch, tip, out)
		}
	}
	head, err := b.Setup(b.Checkout, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if tip, _ := b.Repo.Branch(testbed.HeadBranch); tip != head {
		t.Fatalf("pushed head %s, checkout HEAD %s", tip, head)
	}
	login, id, err := b.Client.Viewer(ctx)
	if err != nil || login != b.Viewer.Login || id != b.Viewer.ID || id <= 0 {
		t.Fatalf("viewer %q %d %v, want %+v", login, id, err, b.Viewer)
	}

	p, err := planner.Build(ctx, b.Deps(), b.Inputs("Add a retry budget", "body"), strings.Repeat("ab", 16))
	if err != nil {
		t.Fatal(err)
	}
	s := p.Doc.InitialSnapshot
	if s.Repository != testbed.Repository || s.HeadBranch != testbed.HeadBranch || s.BaseBranch != testbed.BaseBranch || s.CurrentHeadSHA != head {
		t.Fatalf("snapshot %s %s <- %s at %s", s.Repository, s.BaseBranch, s.HeadBranch, s.CurrentHeadSHA)
	}
	if !slices.Equal(s.Paths, testbed.ChangedPaths()) {
		t.Fatalf("paths %q, want %q", s.Paths, testbed.ChangedPaths())
	}
}

func TestPushBaseMovesBothHalves(t *testing.T) {
	b := newBed(t)
	ctx := context.Background()
	before, _ := b.Repo.Branch(testbed.BaseBranch)
	sha, err := b.PushBase(ctx, "Bump", map[string]string{"VERSION": "2\n"})
	if err != nil {
		t.Fatal(err)
	}
	if sha == before {
		t.Fatal("the base did not move")
	}
	if got, _ := b.Repo.Branch(testbed.BaseBranch); got != sha {
		t.Fatalf("simulator main %s, pushed %s", got, sha)
	}
	out, err := b.Runner.Run(ctx, b.Checkout, "ls-remote", "origin", "refs/heads/"+testbed.BaseBranch)
	if err != nil || !strings.HasPrefix(string(out), sha) {
		t.Fatalf("ls-remote %q %v, want %s", out, err, sha)
	}
}

func TestAliasURLServesTheSameRepository(t *testing.T) {
	b := newBed(t)
	url, err := b.AliasURL("Widgets")
	if err != nil {
		t.Fatal(err)
	}
	if url == b.RepoURL() {
		t.Fatal("alias URL is the original URL")
	}
	a, err := b.Runner.Run(context.Background(), b.Checkout, "ls-remote", url)
	if err != nil {
		t.Fatal(err)
	}
	o, err := b.Runner.Run(context.Background(), b.Checkout, "ls-remote", b.RepoURL())
	if err != nil || string(a) != string(o) || len(a) == 0 {
		t.Fatalf("alias lists %q, original %q (%v)", a, o, err)
	}
}

// Commit dates are fixed, so the demo shows the same SHAs on every run.
func TestTwoBedsHaveTheSameCommits(t *testing.T) {
	a, b := newBed(t), newBed(t)
	for _, br := range []string{testbed.BaseBranch, testbed.HeadBranch} {
		x, _ := a.Repo.Branch(br)
		y, _ := b.Repo.Branch(br)
		if x == "" || x != y {
			t.Fatalf("%s: %q vs %q", br, x, y)
		}
	}
}
