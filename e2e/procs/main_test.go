package procs

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/statestore"
)

var binary string

// TestMain builds the real binary once.
func TestMain(m *testing.M) {
	// Planning in-process probes the sandbox by re-executing this binary.
	sandbox.Main()
	dir, err := os.MkdirTemp("", "prloop-procs-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gh-prloop")
	build := exec.Command("go", "build", "-o", binary, "github.com/prloop/gh-prloop/cmd/gh-prloop")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building gh-prloop:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	title = "Add a retry budget"
	body  = "Retries 502 and 503 within a per-client budget."
)

// world is one standalone simulator and a state root for the processes.
type world struct {
	t       *testing.T
	sim     *standalone.Sim
	state   string
	pushes0 int
	// seedPushes is how many pushes /_sim/state listed before the product ran.
	seedPushes int
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return worldOn(t, standalone.Options{}, "")
}

// worldOn starts a standalone simulator with opts (in a temporary
// directory), writes the PR body beside its checkout, and records what the
// seeding pushed; state "" is a fresh state root.
func worldOn(t *testing.T, opts standalone.Options, state string) *world {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if state == "" {
		state = t.TempDir()
	}
	s, err := standalone.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	// The PR body, outside the checkout so that it is not part of the change.
	if err := os.WriteFile(filepath.Join(s.Info().Checkout, "..", "body.md"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, sim: s, state: state, pushes0: s.Bed.GitServer.Pushes()}
	w.seedPushes = len(loopSimState(t, w).Pushes)
	return w
}

// env is the child's whole environment: the simulator's variables, a
// private state root and HOME, and extra.
func (w *world) env(extra ...string) []string {
	e := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.state, statestore.EnvStateDir + "=" + w.state, "LANG=C.UTF-8"}
	for k, v := range w.sim.Info().Env {
		e = append(e, k+"="+v)
	}
	return append(e, extra...)
}

type result struct {
	code   int
	signal syscall.Signal
	stdout string
	stderr string
}

// gh runs the binary in the checkout and waits for it.
func (w *world) gh(extra []string, args ...string) result {
	w.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = w.sim.Info().Checkout
	cmd.Env = w.env(extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			r.signal = st.Signal()
		}
	} else if err != nil {
		w.t.Fatalf("running gh-prloop %v: %v", args, err)
	}
	return r
}

// approve records an approval of the checkout's plan exactly as `plan`
// does when the human types the hash (the console itself is tested in
// tui/approval and planner/plane2e), and returns the run id.
func (w *world) approve() string {
	w.t.Helper()
	var id [16]byte
	_, _ = rand.Read(id[:])
	runID := hex.EncodeToString(id[:])
	in := w.sim.Bed.Inputs(title, body)
	p, err := planner.Build(context.Background(), w.sim.Bed.Deps(), in, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: w.sim.Bed.Viewer.Login}
	in.Mode, in.Dir = p.Doc.InitialManifest.Mode, p.Obs.Root
	if _, err := initial.RecordApproval(context.Background(), w.state, runID, a, in); err != nil {
		w.t.Fatal(err)
	}
	return runID
}

// checkEndState: one commit with the trailer, one push, one ready PR, one
// request comment with the round-0 marker and the final head, one ACTIVE
// automation whose prompt core accepted, a receipt for every operation,
// and no torn or temporary file anywhere in the state root.
func (w *world) checkEndState(runID string) {
	t := w.t
	t.Helper()
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		t.Fatal(err)
	}
	a, err := run.ReadApproval()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := canon.Parse(a.Document)
	var errs problemsList
	doc := schema.DecodeInitialDocument(raw, "", &errs.l)
	s, m := doc.InitialSnapshot, doc.InitialManifest
	bed := w.sim.Bed
	remote, ok := bed.Repo.Branch(s.HeadBranch)
	if !ok {
		t.Fatal("the head branch is not on the simulator")
	}
	if got := bed.GitServer.Pushes() - w.pushes0; got != 1 {
		t.Fatalf("%d pushes, want exactly 1", got)
	}
	pr, ok := bed.Repo.PR(1)
	if !ok {
		t.Fatal("no pull request")
	}
	if _, two := bed.Repo.PR(2); two {
		t.Fatal("a second pull request was opened")
	}
	d := pr.Data()
	if d.Draft || d.State != "open" || d.HeadSHA != remote || d.Title != title {
		t.Fatalf("pull request draft=%v state=%s head=%s", d.Draft, d.State, d.HeadSHA)
	}
	if remote == s.CurrentHeadSHA {
		t.Fatal("nothing was committed")
	}
	marker := policy.RequestMarker(runID, 0, remote)
	n := 0
	for _, c := range pr.Comments() {
		if strings.Contains(c.Body, marker) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d request comments with %s, want 1", n, marker)
	}
	reg, err := automations.Open(w.state)
	if err != nil {
		t.Fatal(err)
	}
	all, err := reg.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	key := policy.AutomationKey(s.Repository, int64(d.Number), runID)
	if len(all) != 1 || all[0].Key != key || all[0].Status != automations.StatusActive || all[0].PromptSHA256 != sha256Hex(all[0].Prompt) {
		t.Fatalf("automations: %+v", all)
	}
	j, err := journal.New(run, initial.Phase, a.PlanHash, m.Operations, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := j.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		if !e.Done() {
			t.Fatalf("operation %d (%s) has no receipt", i, m.Operations[i])
		}
	}
	// The commit carries the trailer (read from the server's repository).
	msg, err := exec.Command("git", "--git-dir", bed.GitServer.RepoDir(testbed.Owner, testbed.Name), "log", "-1", "--format=%B", remote).Output()
	if err != nil || !strings.Contains(string(msg), "Prloop-Run: "+runID) {
		t.Fatalf("commit message %q (%v) lacks the trailer", msg, err)
	}
	_ = filepath.WalkDir(w.state, func(p string, de os.DirEntry, err error) error {
		if err == nil && strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

type problemsList struct{ l problems.List }

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
