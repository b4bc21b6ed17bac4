package local_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/local"
)

func wantRefusal(t *testing.T, err error, code string, mention string) {
	t.Helper()
	var r *local.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal %s", err, code)
	}
	if r.Code != code {
		t.Fatalf("refusal code %q (%s), want %q", r.Code, r.Message, code)
	}
	if mention != "" && !strings.Contains(r.Message, mention) {
		t.Fatalf("refusal message %q does not mention %q", r.Message, mention)
	}
}

func TestRefusals(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		setup   func(e *testEnv, o *local.Options)
		code    string
		mention string
	}{
		{
			name: "directory replaced by a symlink leaving the worktree",
			setup: func(e *testEnv, _ *local.Options) {
				if err := os.RemoveAll(e.path("dir")); err != nil {
					e.t.Fatal(err)
				}
				if err := os.Symlink(outside, e.path("dir")); err != nil {
					e.t.Fatal(err)
				}
			},
			code: local.CodeSymlinkEscape, mention: "leaves the worktree",
		},
		{
			name: "new symlink to a file outside",
			setup: func(e *testEnv, _ *local.Options) {
				if err := os.Symlink(filepath.Join(outside, "x.txt"), e.path("escape")); err != nil {
					e.t.Fatal(err)
				}
			},
			code: local.CodeSymlinkEscape, mention: "escape",
		},
		{
			name: "relative symlink climbing out",
			setup: func(e *testEnv, _ *local.Options) {
				if err := os.Symlink("../../..", e.path("up")); err != nil {
					e.t.Fatal(err)
				}
			},
			code: local.CodeSymlinkEscape, mention: "up",
		},
		{
			name: "symlink into .git",
			setup: func(e *testEnv, _ *local.Options) {
				if err := os.Symlink(".git/config", e.path("cfg")); err != nil {
					e.t.Fatal(err)
				}
			},
			code: local.CodeGitMetadataPath, mention: "cfg",
		},
		{
			name: "clean filter under the safe profile",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "config", "filter.evil.clean", "touch "+e.path("FILTER-RAN")+"; cat")
				e.write(".gitattributes", "*.txt filter=evil\n")
			},
			code: local.CodeCleanFilter, mention: `"evil"`,
		},
		{
			name:  "unknown remote",
			setup: func(_ *testEnv, o *local.Options) { o.Remote = "upstream" },
			code:  local.CodeUnknownRemote, mention: "upstream",
		},
		{
			name: "branch without upstream",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "switch", "-q", "-c", "topic")
			},
			code: local.CodeUnknownRemote, mention: "branch topic tracks no remote; pass --remote origin",
		},
		{
			name: "branch without upstream, two remotes",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "remote", "add", "upstream", e.srv.RepoURL("octo", "demo"))
				plainGit(e.t, e.work, "switch", "-q", "-c", "topic")
			},
			code: local.CodeUnknownRemote, mention: "pass --remote with one of origin, upstream",
		},
		{
			name: "remote on another host",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "remote", "set-url", "origin", "https://gitlab.example/octo/demo.git")
			},
			code: local.CodeRemoteURL, mention: "gitlab.example",
		},
		{
			name: "remote URL with credentials",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "remote", "set-url", "origin", "https://x:y@"+e.srv.Host+"/octo/demo.git")
			},
			code: local.CodeRemoteURL,
		},
		{
			name: "push URL naming another repository",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "remote", "set-url", "--push", "origin", e.srv.RepoURL("octo", "other"))
			},
			code: local.CodeAmbiguousRemote, mention: "octo/other",
		},
		{
			name: "github.com remote under a test host",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "remote", "set-url", "origin", "https://github.com/octo/demo.git")
			},
			code: local.CodeRemoteURL,
		},
		{
			name: "URL rewriting",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "config", "url.https://evil.example/.insteadOf", e.srv.URL+"/")
			},
			code: local.CodeUnsafeConfig, mention: "rewrites remote URLs",
		},
		{
			name: "TLS verification off for a URL",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "config", "http."+e.srv.URL+"/.sslVerify", "false")
			},
			code: local.CodeUnsafeConfig, mention: "TLS",
		},
		{
			name: "file protocol re-enabled",
			setup: func(e *testEnv, _ *local.Options) {
				plainGit(e.t, e.work, "config", "protocol.file.allow", "always")
			},
			code: local.CodeProtection, mention: "https-only",
		},
		{
			name:  "missing base branch",
			setup: func(_ *testEnv, o *local.Options) { o.BaseBranch = "release" },
			code:  local.CodeBaseBranch, mention: "release",
		},
		{
			name: "unmerged path",
			setup: func(e *testEnv, _ *local.Options) {
				e.write("a.txt", "alpha\n")
				plainGit(e.t, e.work, "switch", "-q", "-c", "side")
				e.write("a.txt", "side\n")
				plainGit(e.t, e.work, "commit", "-qam", "side")
				plainGit(e.t, e.work, "switch", "-q", "main")
				e.write("a.txt", "main\n")
				plainGit(e.t, e.work, "commit", "-qam", "main")
				cmd := []string{"merge", "-q", "side"}
				if out, err := gitOut(e.work, cmd...); err == nil {
					e.t.Fatalf("merge succeeded: %s", out)
				}
			},
			code: local.CodeUnmerged, mention: "a.txt",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			o := e.opts()
			tc.setup(e, &o)
			obs, err := local.Observe(context.Background(), o)
			if err == nil {
				t.Fatalf("Observe succeeded: paths %q", obs.Paths)
			}
			wantRefusal(t, err, tc.code, tc.mention)
			if _, err := os.Stat(e.path("FILTER-RAN")); err == nil {
				t.Fatal("a clean filter ran during observation")
			}
		})
	}
}

func TestCleanFilterUnderAcceptedRisk(t *testing.T) {
	e := newEnv(t, nil)
	plainGit(t, e.work, "config", "filter.upper.clean", "tr a-z A-Z")
	plainGit(t, e.work, "config", "filter.unused.clean", "false")
	e.write(".gitattributes", "*.txt filter=upper\n")
	o := e.opts()
	o.AcceptRisk = true
	obs, err := local.Observe(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	b := obs.Boundary
	if !slices.Equal(b.Git.ActiveCleanFilters, []string{"upper"}) || b.Git.Profile != policy.RiskProfile || b.Isolation != policy.IsolationRisk {
		t.Fatalf("boundary %+v", b)
	}
	// The blob of a.txt is the filtered content, as `git add` would store.
	want := blobOf(t, "ALPHA\nMODIFIED\n")
	found := false
	for _, c := range obs.Changes {
		if string(c.Path) == "a.txt" {
			found = true
			if c.NewBlob != want {
				t.Fatalf("a.txt new blob %s, want the filtered content's %s", c.NewBlob, want)
			}
		}
	}
	if !found {
		t.Fatal("a.txt is not among the changes")
	}
}

func TestUnsafeConfigIsReportedUnderAcceptedRisk(t *testing.T) {
	e := newEnv(t, nil)
	plainGit(t, e.work, "config", "protocol.file.allow", "always")
	o := e.opts()
	o.AcceptRisk = true
	obs, err := local.Observe(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if obs.Boundary.Git.ProtocolRestricted {
		t.Fatal("protocol_restricted is true although protocol.file.allow=always")
	}
	if !obs.Boundary.Git.HooksDisabled {
		t.Fatal("hooks_disabled lost")
	}
}

func TestSubmodules(t *testing.T) {
	e := newEnv(t, nil)
	sub := filepath.Join(t.TempDir(), "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	plainGit(t, sub, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(sub, "s.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plainGit(t, sub, "add", "s.txt")
	plainGit(t, sub, "commit", "-qm", "s")
	plainGit(t, e.work, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mod")
	plainGit(t, e.work, "commit", "-qm", "add submodule")

	// A dirty submodule is not looked into: its own config could run a
	// filter, and the plan never commits inside it.
	plainGit(t, e.path("mod"), "config", "filter.evil.clean", "touch "+e.path("FILTER-RAN")+"; cat")
	e.write("mod/.gitattributes", "* filter=evil\n")
	e.write("mod/s.txt", "dirty\n")
	o := e.observe()
	if !slices.Equal(o.Paths, []string{"a.txt"}) {
		t.Fatalf("paths %q", o.Paths)
	}
	if _, err := os.Stat(e.path("FILTER-RAN")); err == nil {
		t.Fatal("a submodule's clean filter ran")
	}

	// A moved submodule commit cannot be planned.
	if err := os.Remove(e.path("mod/.gitattributes")); err != nil {
		t.Fatal(err)
	}
	plainGit(t, e.path("mod"), "commit", "-qam", "move")
	_, err := local.Observe(context.Background(), e.opts())
	wantRefusal(t, err, local.CodeSubmodule, "mod")
}
