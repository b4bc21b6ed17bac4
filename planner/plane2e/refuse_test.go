package plane2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/tui/approval"
)

// A refusal case makes the checkout one the safe profile must not plan.
// mentions must all appear in the error: what was refused, named so that
// the human can find it (escaped when its bytes are not printable UTF-8).
type refusalCase struct {
	name     string
	change   func(t *testing.T, w *world)
	code     string
	mentions []string
}

func refusalCases() []refusalCase {
	return []refusalCase{
		{
			name: "a path through a symlink that leaves the worktree",
			change: func(t *testing.T, w *world) {
				outside := t.TempDir()
				writeFile(t, filepath.Join(outside, "budget.go"), "package retry\n")
				if err := os.RemoveAll(w.bed.Path("internal/retry")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, w.bed.Path("internal/retry")); err != nil {
					t.Fatal(err)
				}
			},
			code:     local.CodeSymlinkEscape,
			mentions: []string{"internal/retry", "leaves the worktree"},
		},
		{
			name: "a path resolving into .git",
			change: func(t *testing.T, w *world) {
				if err := os.Symlink("../.git/config", w.bed.Path("docs/config")); err != nil {
					t.Fatal(err)
				}
			},
			code:     local.CodeGitMetadataPath,
			mentions: []string{"docs/config", "git metadata"},
		},
		{
			name: "a hard link to .git/config",
			change: func(t *testing.T, w *world) {
				if err := os.Link(filepath.Join(w.bed.Checkout, ".git", "config"), w.bed.Path("docs/settings.ini")); err != nil {
					t.Fatal(err)
				}
			},
			code:     local.CodeGitMetadataPath,
			mentions: []string{`"docs/settings.ini" is the same file as`, "config"},
		},
		{
			name: "a path inside a directory git treats as .git",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path("docs/.Git/hooks/pre-commit"), "#!/bin/sh\n")
			},
			code:     local.CodeGitMetadataPath,
			mentions: []string{`docs/.Git/hooks/pre-commit`},
		},
		{
			name: "a clean filter under the safe profile",
			change: func(t *testing.T, w *world) {
				setup(t, w, "config", "filter.evil.clean", "touch "+filterMarker(w)+"; cat")
				writeFile(t, w.bed.Path(".gitattributes"), "*.md text\n*.go diff=golang filter=evil\n")
			},
			code:     local.CodeCleanFilter,
			mentions: []string{`"evil"`, "would run programs"},
		},
		{
			name: "an unknown remote",
			change: func(t *testing.T, w *world) {
				setup(t, w, "config", "branch."+testbed.HeadBranch+".remote", "nowhere")
			},
			code:     local.CodeUnknownRemote,
			mentions: []string{`"nowhere"`},
		},
		{
			name: "a name with a newline",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path("docs/new\nline.md"), "two lines in a name\n")
			},
			code:     local.CodeInvalidPath,
			mentions: []string{`"docs/new\nline.md"`},
		},
		{
			name: "a path with a zero-width space",
			change: func(t *testing.T, w *world) {
				// Shown stripped, it would read as the real README.md.
				writeFile(t, w.bed.Path("README\u200b.md"), "look-alike\n")
			},
			code:     local.CodeHiddenCharacter,
			mentions: []string{`"README\u200b.md"`, "U+200B (zero-width character)"},
		},
		{
			name: "a path with a bidi override",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path("docs/notes\u202ecod.exe"), "reversed\n")
			},
			code:     local.CodeHiddenCharacter,
			mentions: []string{`"docs/notes\u202ecod.exe"`, "U+202E (bidi control)"},
		},
		{
			name: "an LFS attribute whose driver only the global config has",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path(".gitattributes"), "*.bin filter=lfs diff=lfs merge=lfs -text\n")
				writeFile(t, w.bed.Path("assets/model.bin"), "large content\n")
			},
			code:     local.CodeUnconfiguredFilter,
			mentions: []string{`"lfs" (e.g. on "assets/model.bin")`, "committed as its raw content"},
		},
		{
			name: "a name that is not UTF-8",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path("docs/caf\xe9.md"), "latin-1\n")
			},
			code:     local.CodeNonUTF8Path,
			mentions: []string{`"docs/caf\xe9.md"`, "not valid UTF-8"},
		},
	}
}

func filterMarker(w *world) string { return filepath.Join(w.state, "..", "FILTER-RAN-"+w.runID) }

// Each refusal is tested twice: planning such a checkout fails with the
// reason, and a plan shown before the checkout became such a checkout
// cannot be approved — the re-check fails with the same reason and nothing
// is recorded.
func TestRefusedCheckoutsRecordNothing(t *testing.T) {
	for _, tc := range refusalCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			shown := w.mustBuild()
			tm := w.console(shown)

			tc.change(t, w)
			p, err := w.build()
			if err == nil {
				t.Fatalf("planned: paths %q", p.Doc.InitialSnapshot.Paths)
			}
			wantRefusal(t, err, tc.code, tc.mentions...)

			approve(tm, shown.PlanHash)
			w.waitScreen(tm, "the plan could not be rebuilt", "refused ("+tc.code+")")
			r := w.finish(tm, true)
			if r.Outcome != approval.Failed || r.Err == nil {
				t.Fatalf("outcome %v (%v), want a failure", r.Outcome, r.Err)
			}
			wantRefusal(t, r.Err, tc.code, tc.mentions...)
			w.assertNothingRecorded()
			if _, err := os.Stat(filterMarker(w)); err == nil {
				t.Fatal("a clean filter ran")
			}
		})
	}
}

func TestAnUnknownRemoteNamedByTheHumanIsRefused(t *testing.T) {
	w := newWorld(t)
	w.in.Remote = "upstream"
	_, err := w.build()
	wantRefusal(t, err, local.CodeUnknownRemote, `no remote named "upstream"`)
	w.assertNothingRecorded()
}

// Names with spaces (and other printable Unicode) are exact from git's -z
// output to the approved document.
func TestNamesWithSpacesEndToEnd(t *testing.T) {
	w := newWorld(t)
	names := map[string]string{
		"docs/getting started.md":     "# Getting started\n\nRun `make test`.\n",
		"notes/  two  spaces .txt":    "spaces\n",
		"notes/ünïcode – name (1).md": "unicode\n",
		"-leading dash 'quoted'.txt":  "dash\n",
	}
	for n, c := range names {
		writeFile(t, w.bed.Path(n), c)
	}
	p := w.mustBuild()
	paths := p.Doc.InitialSnapshot.Paths
	for n := range names {
		if !contains(paths, n) {
			t.Fatalf("paths %q lack %q", paths, n)
		}
	}
	for i, r := range p.Doc.InitialSnapshot.PathRecords {
		if r.Path != paths[i] || !r.InsideWorktree || !r.OutsideGitMetadata {
			t.Fatalf("record %d: %+v", i, r)
		}
	}
	tm := w.console(p, "notes/  two  spaces .txt")
	approve(tm, p.PlanHash)
	if r := w.finish(tm, false); r.Outcome != approval.Approved {
		t.Fatalf("result %+v", r)
	}
	a, err := w.readApproval()
	if err != nil {
		t.Fatal(err)
	}
	recorded := decodeDoc(t, a.Document).InitialSnapshot.Paths
	if strings.Join(recorded, "\x00") != strings.Join(paths, "\x00") {
		t.Fatalf("recorded paths %q, planned %q", recorded, paths)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
