package local_test

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/local"
)

func TestObserveBaseline(t *testing.T) {
	e := newEnv(t, nil)
	o := e.observe()

	if o.RemoteName != "origin" || o.Repository != "octo/demo" || o.BaseBranch != "main" {
		t.Errorf("remote/repository/base = %q %q %q", o.RemoteName, o.Repository, o.BaseBranch)
	}
	if want := plainGit(t, e.work, "rev-parse", "HEAD"); o.HeadSHA != want || o.BaseSHA != want {
		t.Errorf("head %s base %s, want both %s", o.HeadSHA, o.BaseSHA, want)
	}
	if o.TransportURL != e.srv.RepoURL("octo", "demo") || o.CurrentBranch != "main" {
		t.Errorf("transport %q branch %q", o.TransportURL, o.CurrentBranch)
	}
	if !slices.Equal(o.Paths, []string{"a.txt"}) || len(o.PathRecords) != 1 || o.PathRecords[0].Path != "a.txt" {
		t.Errorf("paths %q records %+v", o.Paths, o.PathRecords)
	}
	b := o.Boundary
	g := b.Git
	if g.Profile != policy.SafeProfile || b.Isolation != policy.IsolationSafe || b.RiskAcceptanceSHA256 != nil ||
		g.CredentialStrategy != policy.CredentialStrategy || g.ActiveCleanFilters == nil || len(g.ActiveCleanFilters) != 0 {
		t.Errorf("boundary = %+v", b)
	}
	for name, v := range map[string]bool{
		"hooks": g.HooksDisabled, "fsmonitor": g.FsmonitorDisabled, "signing": g.SigningDisabled,
		"protocol": g.ProtocolRestricted, "hfs": g.ProtectHFSEnabled, "ntfs": g.ProtectNTFSEnabled,
		"extdiff": g.ExternalDiffDisabled, "textconv": g.TextconvDisabled,
	} {
		if !v {
			t.Errorf("protection %s not applied", name)
		}
	}
	if g.InvocationSHA256 != e.runner.InvocationSHA256() {
		t.Error("invocation digest is not the runner's")
	}
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for k, v := range digests(t, o) {
		switch k {
		case "base_sha", "head_sha", "remote_name", "repository", "active_filters":
			continue
		}
		if !hex64.MatchString(v) {
			t.Errorf("%s = %q is not a sha256", k, v)
		}
	}

	// Observing twice without a change gives identical values: nothing in
	// an observation depends on time or on the previous observation.
	if diff := changedKeys(digests(t, o), digests(t, e.observe())); len(diff) != 0 {
		t.Errorf("a second observation differs in %v", diff)
	}
}

func TestObserveDoesNotWriteTheIndex(t *testing.T) {
	e := newEnv(t, nil)
	// A file rewritten with the same content has stale stat data; a plain
	// `git status` would refresh and rewrite the index.
	e.write("dir/b.txt", "bravo\n")
	before := fileSum(t, filepath.Join(e.work, ".git", "index"))
	e.observe()
	if after := fileSum(t, filepath.Join(e.work, ".git", "index")); after != before {
		t.Fatal("Observe rewrote .git/index")
	}
}

func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestEachChangeMovesExactlyItsDigests changes one thing at a time and
// checks that exactly the observations that cover it change.
func TestEachChangeMovesExactlyItsDigests(t *testing.T) {
	changeSet := []string{"diff", "status", "paths", "path_records"}
	cases := []struct {
		name   string
		mutate func(e *testEnv) local.Options
		want   []string
	}{
		{
			name:   "content of an already modified file",
			mutate: func(e *testEnv) local.Options { e.write("a.txt", "alpha\nmodified again\n"); return e.opts() },
			want:   []string{"diff"},
		},
		{
			name:   "content of an unmodified file",
			mutate: func(e *testEnv) local.Options { e.write("dir/b.txt", "bravo 2\n"); return e.opts() },
			want:   changeSet,
		},
		{
			name:   "untracked file",
			mutate: func(e *testEnv) local.Options { e.write("new.txt", "new\n"); return e.opts() },
			want:   changeSet,
		},
		{
			name: "git config value",
			mutate: func(e *testEnv) local.Options {
				plainGit(e.t, e.work, "config", "core.abbrev", "12")
				return e.opts()
			},
			want: []string{"config"},
		},
		{
			name: ".gitattributes filter",
			mutate: func(e *testEnv) local.Options {
				e.write(".gitattributes", "*.bin binary\n*.txt filter\n")
				return e.opts()
			},
			want: append([]string{"attributes"}, changeSet...),
		},
		{
			name: "info/attributes filter",
			mutate: func(e *testEnv) local.Options {
				e.write(".git/info/attributes", "*.txt filter\n")
				return e.opts()
			},
			want: []string{"attributes", "metadata"},
		},
		{
			name: "remote URL",
			mutate: func(e *testEnv) local.Options {
				// A mirror with identical refs, so only the URL differs.
				if _, err := e.srv.CreateRepo("octo", "mirror", "main"); err != nil {
					e.t.Fatal(err)
				}
				if _, err := e.runner.Run(context.Background(), e.work, "push", "-q", e.srv.RepoURL("octo", "mirror"), "main:refs/heads/main"); err != nil {
					e.t.Fatal(err)
				}
				plainGit(e.t, e.work, "remote", "set-url", "origin", e.srv.RepoURL("octo", "mirror"))
				return e.opts()
			},
			want: []string{"config", "transport_url", "repository"},
		},
		{
			name: "base tip",
			mutate: func(e *testEnv) local.Options {
				// Someone else pushes to the base branch.
				other := filepath.Join(e.t.TempDir(), "other")
				plainGit(e.t, filepath.Dir(other), "clone", "-q", e.srv.RepoDir("octo", "demo"), other)
				if err := os.WriteFile(filepath.Join(other, "c.txt"), []byte("c\n"), 0o644); err != nil {
					e.t.Fatal(err)
				}
				plainGit(e.t, other, "add", "c.txt")
				plainGit(e.t, other, "commit", "-qm", "upstream")
				e.push(other, "main")
				return e.opts()
			},
			want: []string{"remote_refs", "base_sha"},
		},
		{
			name: "a new local ref",
			mutate: func(e *testEnv) local.Options {
				plainGit(e.t, e.work, "branch", "topic")
				return e.opts()
			},
			want: []string{"metadata"},
		},
		{
			name: "another credential helper",
			mutate: func(e *testEnv) local.Options {
				o := e.opts()
				o.Runner = newRunner(e.t, e.srv)
				return o
			},
			// The helper is a -c value, so git's effective config lists it too.
			want: []string{"invocation", "config"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			before := digests(t, e.observe())
			opts := tc.mutate(e)
			after, err := local.Observe(context.Background(), opts)
			if err != nil {
				t.Fatalf("Observe after change: %v", err)
			}
			got := changedKeys(before, digests(t, after))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("changed %v, want exactly %v", got, want)
			}
		})
	}
}

// Attribute sources that are neither tracked nor shown by status still
// change the attributes digest, and only it.
func TestAttributesSourcesOutsideStatus(t *testing.T) {
	e := newEnv(t, nil)
	e.write(".git/info/exclude", "dir/.gitattributes\n")
	extra := filepath.Join(t.TempDir(), "attributes")
	plainGit(t, e.work, "config", "core.attributesFile", extra)
	writeExtra := func(s string) {
		if err := os.WriteFile(extra, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		mutate func()
	}{
		{"ignored dir/.gitattributes appears", func() { e.write("dir/.gitattributes", "*.txt -text\n") }},
		{"ignored dir/.gitattributes changes", func() { e.write("dir/.gitattributes", "*.txt text\n") }},
		{"core.attributesFile content appears", func() { writeExtra("* -diff\n") }},
		{"core.attributesFile content changes", func() { writeExtra("* diff\n") }},
	}
	prev := digests(t, e.observe())
	for _, s := range steps {
		s.mutate()
		cur := digests(t, e.observe())
		got := changedKeys(prev, cur)
		if !slices.Equal(got, []string{"attributes"}) {
			t.Errorf("%s: changed %v, want exactly [attributes]", s.name, got)
		}
		prev = cur
	}
}

// What Observe produces passes core's own boundary and path rules.
func TestApplyToPassesCoreRules(t *testing.T) {
	e := newEnv(t, nil)
	e.write("sub dir/ü.txt", "x\n")
	o := e.observe()
	var s schema.InitialSnapshot
	o.ApplyTo(&s)
	var errs problems.List
	validate.CheckBoundary(s.ExecutionBoundary, "/execution_boundary", &errs)
	validate.CheckPathSet(s.Paths, s.PathRecords, "/paths", "/path_records", &errs)
	if !errs.Empty() {
		t.Fatalf("core rejects the observation: %v", errs)
	}
	if s.RemoteName != "origin" || s.Repository != "octo/demo" || s.BaseSHA != o.BaseSHA || s.DiffSHA256 != o.DiffSHA256 ||
		s.WorktreeStatusSHA256 != o.WorktreeStatusSHA256 || s.RemoteRefsSHA256 != o.RemoteRefsSHA256 || s.CurrentHeadSHA != o.HeadSHA ||
		!slices.Equal(s.Paths, []string{"a.txt", "sub dir/ü.txt"}) {
		t.Fatalf("snapshot fields %+v", s)
	}
	// The snapshot holds copies: changing it leaves the observation intact.
	s.Paths[0] = "changed"
	if o.Paths[0] != "a.txt" {
		t.Fatal("ApplyTo shares the paths slice")
	}
}
