package plane2e

import (
	tea "github.com/charmbracelet/bubbletea"

	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/docdiff"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/tui/approval"
)

const (
	snap     = "/initial_snapshot/"
	boundary = snap + "execution_boundary/git/"
)

// A drift case changes exactly one thing in the world. fields are the
// snapshot fields that thing is bound by: exactly these change (array
// fields are named without their index), nothing else in the snapshot.
type driftCase struct {
	name   string
	before func(t *testing.T, w *world) // optional: the world the plan is shown in
	change func(t *testing.T, w *world)
	fields []string
}

func driftCases() []driftCase {
	return []driftCase{
		{
			name: "a file's content",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path(testbed.ModifiedFile), "package httpclient\n\n// edited after display\n")
			},
			fields: []string{snap + "diff_sha256"},
		},
		{
			name: "a git config value",
			change: func(t *testing.T, w *world) {
				setup(t, w, "config", "core.abbrev", "12")
			},
			fields: []string{boundary + "config_snapshot_sha256"},
		},
		{
			name: "a .gitattributes attribute",
			change: func(t *testing.T, w *world) {
				// Only attributes the safe profile accepts: no driver is
				// configured, so nothing here could run a program.
				writeFile(t, w.bed.Path(".gitattributes"), "*.md text\n*.go diff=golang\n*.txt -text\n")
			},
			// The file is tracked, so editing it is also a change of the
			// plan's own paths.
			fields: []string{boundary + "attributes_snapshot_sha256", snap + "diff_sha256", snap + "paths", snap + "path_records", snap + "worktree_status_sha256"},
		},
		{
			name: "a .gitattributes filter no driver cleans",
			before: func(t *testing.T, w *world) {
				// The driver is configured with a smudge command only: no
				// clean or process command runs on status, diff or add, so
				// the safe profile accepts it. (A driver the repository does
				// not configure at all is refused: filter-driver-not-configured.)
				setup(t, w, "config", "filter.prloopnone.smudge", "cat")
			},
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path(".gitattributes"), "*.md text\n*.go diff=golang filter=prloopnone\n")
			},
			fields: []string{boundary + "attributes_snapshot_sha256", snap + "diff_sha256", snap + "paths", snap + "path_records", snap + "worktree_status_sha256"},
		},
		{
			name: "a .gitattributes filter's name while another filter has a clean driver",
			before: func(t *testing.T, w *world) {
				// A clean driver exists but no path activates it: local must
				// look at every path's filter attribute, find none naming
				// it, and accept.
				setup(t, w, "config", "filter.prloopunused.clean", "touch "+filterMarker(w)+"; cat")
				setup(t, w, "config", "filter.prloopnone.smudge", "cat")
				setup(t, w, "config", "filter.prloopother.smudge", "cat")
				writeFile(t, w.bed.Path(".gitattributes"), "*.md text\n*.go diff=golang filter=prloopnone\n")
			},
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path(".gitattributes"), "*.md text\n*.go diff=golang filter=prloopother\n")
			},
			// .gitattributes is already a modified path when the plan is
			// shown: like any file's content, only the diff binds its edit
			// (path records bind where a path resolves, status its state).
			fields: []string{boundary + "attributes_snapshot_sha256", snap + "diff_sha256"},
		},
		{
			name: "a filter's config without a clean command",
			change: func(t *testing.T, w *world) {
				// Smudge runs only on checkout, which planning never does;
				// the safe profile accepts it and binds it as config.
				setup(t, w, "config", "filter.prloopnone.smudge", "cat")
			},
			fields: []string{boundary + "config_snapshot_sha256"},
		},
		{
			name: "info/attributes",
			change: func(t *testing.T, w *world) {
				writeFile(t, filepath.Join(w.bed.Checkout, ".git", "info", "attributes"), "*.go -diff\n")
			},
			// info/ is git metadata, bound as such too.
			fields: []string{boundary + "attributes_snapshot_sha256", boundary + "git_metadata_snapshot_sha256"},
		},
		{
			name: "an untracked file",
			change: func(t *testing.T, w *world) {
				writeFile(t, w.bed.Path("notes/todo.txt"), "write the changelog\n")
			},
			fields: []string{snap + "diff_sha256", snap + "paths", snap + "path_records", snap + "worktree_status_sha256"},
		},
		{
			name: "the remote URL",
			change: func(t *testing.T, w *world) {
				url, err := w.bed.AliasURL("Widgets")
				if err != nil {
					t.Fatal(err)
				}
				setup(t, w, "remote", "set-url", testbed.RemoteName, url)
			},
			// Same repository, same refs: only the URL and the config
			// that holds it.
			fields: []string{boundary + "transport_url_sha256", boundary + "config_snapshot_sha256"},
		},
		{
			name: "the base tip",
			change: func(t *testing.T, w *world) {
				if _, err := w.bed.PushBase(context.Background(), "Bump the version", map[string]string{"VERSION": "1.5.0\n"}); err != nil {
					t.Fatal(err)
				}
			},
			fields: []string{snap + "base_sha", snap + "remote_refs_sha256"},
		},
		{
			name: "the open PRs",
			change: func(t *testing.T, w *world) {
				if _, err := w.bed.OpenPR("Someone else's title", "opened on GitHub meanwhile"); err != nil {
					t.Fatal(err)
				}
			},
			fields: []string{snap + "open_prs_sha256", snap + "existing_pr_number", snap + "existing_pr_base_branch",
				snap + "existing_pr_head_branch", snap + "existing_pr_head_sha", snap + "existing_pr_same_repository"},
		},
	}
}

func setup(t *testing.T, w *world, args ...string) {
	t.Helper()
	if _, err := w.bed.Setup(w.bed.Checkout, args...); err != nil {
		t.Fatal(err)
	}
}

var indexRE = regexp.MustCompile(`/[0-9]+(/.*)?$`)

// snapshotFields names the snapshot fields among changes, arrays by name.
func snapshotFields(changes []docdiff.Change) []string {
	var out []string
	for _, c := range changes {
		if !strings.HasPrefix(c.Path, snap) {
			continue
		}
		out = append(out, indexRE.ReplaceAllString(c.Path, ""))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestEveryChangeDriftsThePlanAndTheApprovalRecordsNothing(t *testing.T) {
	for _, tc := range driftCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			if tc.before != nil {
				tc.before(t, w)
			}
			shown := w.mustBuild()
			if again := w.mustBuild(); again.PlanHash != shown.PlanHash {
				t.Fatalf("rebuilding an unchanged world changed the plan hash: %s then %s", shown.PlanHash, again.PlanHash)
			}
			tm := w.console(shown)

			// The world changes while the human reads the plan.
			tc.change(t, w)
			changed := w.mustBuild()
			if changed.PlanHash == shown.PlanHash {
				t.Fatal("the plan hash did not change")
			}
			changes, err := docdiff.Diff(shown.Canonical, changed.Canonical)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Sorted(slices.Values(tc.fields))
			if got := snapshotFields(changes); !slices.Equal(got, want) {
				t.Fatalf("changed snapshot fields %q, want exactly %q", got, want)
			}

			// The human approves what they saw; the re-check finds drift.
			approve(tm, shown.PlanHash)
			w.waitScreen(tm, approval.DriftHeadline, tc.fields[0])
			r := w.finish(tm, true)
			if r.Outcome != approval.Drift || r.RebuiltHash != changed.PlanHash {
				t.Fatalf("outcome %v rebuilt %s (err %v), want drift to %s", r.Outcome, r.RebuiltHash, r.Err, changed.PlanHash)
			}
			if got := snapshotFields(r.Changes); !slices.Equal(got, want) {
				t.Fatalf("the console names %q, want %q", got, want)
			}
			if sum := approval.DriftSummary(shown.PlanHash, r); !strings.Contains(sum, tc.fields[0]) {
				t.Fatalf("drift summary does not name %s:\n%s", tc.fields[0], sum)
			}
			w.assertNothingRecorded()
			if _, err := os.Stat(filterMarker(w)); err == nil {
				t.Fatal("planning ran a clean filter no path activates")
			}
			if got := changed.Doc.InitialSnapshot.ExecutionBoundary.Git.ActiveCleanFilters; len(got) != 0 {
				t.Fatalf("active clean filters %q under the safe profile", got)
			}
		})
	}
}

func TestTheRightHashApprovesAndRecords(t *testing.T) {
	w := newWorld(t)
	p := w.mustBuild()
	tm := w.console(p)
	// Only the exact hash approves: these are refused on the spot, without
	// even a re-check.
	wrong := []byte(p.PlanHash)
	wrong[63] = "01"[map[bool]int{true: 1, false: 0}[wrong[63] == '0']]
	refused := []struct{ typed, hint string }{
		{string(wrong), "group 8 of 8 differs"},
		{p.PlanHash[:32], "only 32 of the 64 characters"},
		{strings.ToUpper(p.PlanHash), "the case differs"},
		{"", "nothing was typed"},
	}
	for _, c := range refused {
		if c.typed == p.PlanHash {
			t.Fatalf("%q is the hash", c.typed)
		}
		approve(tm, c.typed)
		w.waitScreen(tm, approval.Refusal, c.hint)
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // the refused input is kept; clear it
	}
	if n := w.rechecks.Load(); n != 0 {
		t.Fatalf("a refused input triggered %d re-checks", n)
	}
	w.assertNothingRecorded()

	approve(tm, p.PlanHash)
	r := w.finish(tm, false)
	if n := w.rechecks.Load(); n != 1 {
		t.Fatalf("approving re-checked %d times, want once", n)
	}
	if r.Outcome != approval.Approved || !strings.Contains(r.Statement, p.PlanHash) {
		t.Fatalf("result %+v", r)
	}
	a, err := w.readApproval()
	if err != nil {
		t.Fatalf("the recorded approval does not validate: %v", err)
	}
	if a.PlanHash != p.PlanHash || string(a.Document) != string(p.Canonical) || a.ApproverID != w.bed.Viewer.ID || a.ApprovedAt != approved {
		t.Fatalf("recorded %+v", a)
	}
	doc := decodeDoc(t, a.Document)
	if doc.InitialManifest.RunID != w.runID || !slices.Equal(doc.InitialSnapshot.Paths, testbed.ChangedPaths()) {
		t.Fatalf("recorded run %s paths %q", doc.InitialManifest.RunID, doc.InitialSnapshot.Paths)
	}
	if _, err := os.Stat(filepath.Join(w.bed.Checkout, ".git", "index.lock")); err == nil {
		t.Fatal("planning left an index lock behind")
	}
}
