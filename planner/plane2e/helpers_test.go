package plane2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/theme"
)

const (
	title    = "Add a retry budget"
	body     = "Retries 502 and 503 within a per-client budget."
	waitFor  = 20 * time.Second // a re-check is a full observation over HTTPS
	termW    = 200
	termH    = 120
	approved = "2026-03-02T10:00:00Z"
)

// world is one bed plus the run the test is planning and where approvals go.
type world struct {
	t     *testing.T
	bed   *testbed.Bed
	in    planner.Inputs
	runID string
	state string // GH_PRLOOP_STATE_DIR of this test

	rechecks atomic.Int64 // how often the console rebuilt the plan
}

func newWorld(t *testing.T) *world {
	t.Helper()
	b, err := testbed.New(context.Background(), testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return &world{t: t, bed: b, in: b.Inputs(title, body), runID: freshRunID(t), state: t.TempDir()}
}

func freshRunID(t testing.TB) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// build plans the checkout as it is now, for this world's run.
func (w *world) build() (*planner.Plan, error) {
	return planner.Build(context.Background(), w.bed.Deps(), w.in, w.runID)
}

func (w *world) mustBuild() *planner.Plan {
	w.t.Helper()
	p, err := w.build()
	if err != nil {
		w.t.Fatalf("plan: %v", err)
	}
	return p
}

// getenv is the environment the state store sees: only the state directory
// is set, so the developer's own XDG_STATE_HOME or home is never touched.
func (w *world) getenv(k string) string {
	if k == statestore.EnvStateDir {
		return w.state
	}
	return ""
}

// record writes the approval the way `gh-prloop plan` does: under the
// run's lock, atomically, validated.
func (w *world) record(ctx context.Context, p *planner.Plan) (string, error) {
	root, err := statestore.Root(w.getenv, func() (string, error) { return "", errors.New("no home in tests") })
	if err != nil {
		return "", err
	}
	run, err := statestore.OpenPlan(root, w.runID)
	if err != nil {
		return "", err
	}
	unlock, err := run.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: approved, ApproverID: w.bed.Viewer.ID, ApproverLogin: w.bed.Viewer.Login}
	if err := run.WriteApproval(a); err != nil {
		return "", err
	}
	return "Approved plan " + p.PlanHash + " recorded in " + run.Dir(), nil
}

// readApproval reads back what was recorded for this run.
func (w *world) readApproval() (statestore.Approval, error) {
	run, err := statestore.OpenPlan(w.state, w.runID)
	if err != nil {
		return statestore.Approval{}, err
	}
	return run.ReadApproval()
}

// stateFiles lists every file under the state directory; "nothing is
// recorded" means this is empty.
func (w *world) stateFiles() []string {
	w.t.Helper()
	var files []string
	err := filepath.WalkDir(w.state, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return files
}

func (w *world) assertNothingRecorded() {
	w.t.Helper()
	if files := w.stateFiles(); len(files) != 0 {
		w.t.Fatalf("the state directory is not empty: %q", files)
	}
}

// console opens the approval console on p exactly as the plan command
// wires it: the view from the validated document and the checkout's files,
// Recheck = a full planner.Build with the same inputs and run id, Record =
// the state store.
// The first screen must show every string of want.
func (w *world) console(p *planner.Plan, want ...string) *teatest.TestModel {
	w.t.Helper()
	view := approval.FromDocument(p.Doc, p.Canonical)
	view.Title, view.Approver = p.Title, w.bed.Viewer.Login
	files, err := planner.Files(context.Background(), w.bed.Runner, p)
	if err != nil {
		w.t.Fatal(err)
	}
	view.Files = files
	cfg := approval.Config{
		View: view,
		Recheck: func(ctx context.Context) (approval.RecheckResult, error) {
			w.rechecks.Add(1)
			q, err := planner.Build(ctx, w.bed.Deps(), w.in, w.runID)
			if err != nil {
				return approval.RecheckResult{}, err
			}
			return approval.RecheckResult{Document: q.Canonical, PlanHash: q.PlanHash, Blobs: planner.Blobs(q)}, nil
		},
		Record: func(ctx context.Context) (string, error) { return w.record(ctx, p) },
	}
	st := theme.New(theme.NewRenderer(io.Discard, false), theme.Default())
	tm := teatest.NewTestModel(w.t, approval.New(cfg, &st), teatest.WithInitialTermSize(termW, termH))
	w.waitScreen(tm, append([]string{"Plan hash"}, want...)...)
	return tm
}

func (w *world) waitScreen(tm *teatest.TestModel, want ...string) {
	w.t.Helper()
	teatest.WaitFor(w.t, tm.Output(), func(b []byte) bool {
		for _, s := range want {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitFor), teatest.WithCheckInterval(10*time.Millisecond))
}

// approve types hash and presses enter.
func approve(tm *teatest.TestModel, hash string) {
	tm.Type(hash)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
}

// finish leaves a console showing a verdict (drift or failure) and returns
// how it ended.
func (w *world) finish(tm *teatest.TestModel, leave bool) approval.Result {
	w.t.Helper()
	if leave {
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	}
	return tm.FinalModel(w.t, teatest.WithFinalTimeout(waitFor)).(*approval.Model).Result()
}

func wantRefusal(t *testing.T, err error, code string, mentions ...string) {
	t.Helper()
	var r *local.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal %s", err, code)
	}
	if r.Code != code {
		t.Fatalf("refusal code %q (%s), want %q", r.Code, r.Message, code)
	}
	for _, m := range mentions {
		if !strings.Contains(err.Error(), m) {
			t.Fatalf("error %q does not mention %q", err.Error(), m)
		}
	}
}

func decodeDoc(t testing.TB, doc []byte) schema.InitialDocument {
	t.Helper()
	raw, err := canon.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	var errs problems.List
	d := schema.DecodeInitialDocument(raw, "", &errs)
	if !errs.Empty() {
		t.Fatalf("recorded document does not decode: %v", errs)
	}
	return d
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
