package initial_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
)

const (
	title = "Add a retry budget"
	body  = "Retries 502 and 503 within a per-client budget."
)

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// world is one testbed, one approved plan and one registry.
type world struct {
	t       *testing.T
	bed     *testbed.Bed
	in      planner.Inputs
	runID   string
	state   string
	reg     *automations.Registry
	plan    *planner.Plan
	pushes0 int
	events  []initial.Event
	probe   planner.ProbeFunc // nil: the real sandbox probe
}

func newWorld(t *testing.T, mutate func(*planner.Inputs)) *world {
	t.Helper()
	b, err := testbed.New(context.Background(), testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	var id [16]byte
	_, _ = rand.Read(id[:])
	w := &world{t: t, bed: b, in: b.Inputs(title, body), runID: hex.EncodeToString(id[:]), state: t.TempDir()}
	if mutate != nil {
		mutate(&w.in)
	}
	if w.reg, err = automations.Open(w.state); err != nil {
		t.Fatal(err)
	}
	return w
}

// approve builds the plan and records its approval, as `plan` does.
func (w *world) approve() statestore.Approval {
	w.t.Helper()
	deps := w.bed.Deps()
	deps.Probe = w.probe
	p, err := planner.Build(context.Background(), deps, w.in, w.runID)
	if err != nil {
		w.t.Fatalf("plan: %v", err)
	}
	w.plan = p
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z", ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: w.bed.Viewer.Login}
	if _, err := initial.RecordApproval(context.Background(), w.state, w.runID, a, w.in); err != nil {
		w.t.Fatal(err)
	}
	w.pushes0 = w.bed.GitServer.Pushes()
	return a
}

func (w *world) run() *statestore.Run {
	w.t.Helper()
	r, err := statestore.OpenPlan(w.state, w.runID)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// execute runs the executor on the recorded approval, as `apply` does.
func (w *world) execute(fault func(string) bool) (*initial.Result, error) {
	w.t.Helper()
	run := w.run()
	a, err := run.ReadApproval()
	if err != nil {
		w.t.Fatal(err)
	}
	in, err := initial.ReadInputs(run)
	if err != nil {
		w.t.Fatal(err)
	}
	d := initial.Deps{Git: w.bed.Runner, GitHub: w.bed.Client, Registry: initial.FromAutomations(w.reg), Fault: fault, Commands: initial.Sandbox{}, Probe: w.probe,
		Events: func(e initial.Event) { w.events = append(w.events, e) }}
	return initial.Execute(context.Background(), d, initial.Job{Run: run, Approval: a, Inputs: in})
}

// checkEndState asserts the acceptance end state: one commit carrying the
// trailer, the branch pushed once, one ready PR, one request comment with
// the round-0 marker and the final head, one ACTIVE automation whose prompt
// core accepted, and a receipt for every operation.
func (w *world) checkEndState(res *initial.Result) {
	t := w.t
	t.Helper()
	s, m := w.plan.Doc.InitialSnapshot, w.plan.Doc.InitialManifest
	remote := w.bareGit("rev-parse", "refs/heads/"+s.HeadBranch)
	if remote != res.FinalHeadSHA {
		t.Fatalf("remote head %s, result says %s", remote, res.FinalHeadSHA)
	}
	if n := w.bareGit("rev-list", "--count", s.CurrentHeadSHA+".."+remote); n != "1" {
		t.Fatalf("%s commits on top of the approved head, want exactly 1", n)
	}
	msg := w.bareGit("log", "-1", "--format=%B", remote)
	if !strings.HasPrefix(msg, title+"\n") || !strings.Contains(msg, "Prloop-Run: "+w.runID) {
		t.Fatalf("commit message %q lacks the title subject or the run trailer", msg)
	}
	if got := w.bed.GitServer.Pushes() - w.pushes0; got != 1 {
		t.Fatalf("%d pushes, want exactly 1", got)
	}
	pr, ok := w.bed.Repo.PR(1)
	if !ok {
		t.Fatal("no pull request #1")
	}
	if _, two := w.bed.Repo.PR(2); two {
		t.Fatal("a second pull request was opened")
	}
	d := pr.Data()
	if d.Draft || d.State != "open" || d.Title != title || d.Body != body || d.HeadSHA != remote {
		t.Fatalf("pull request: draft %v state %s title %q head %s", d.Draft, d.State, d.Title, d.HeadSHA)
	}
	marker := policy.RequestMarker(w.runID, 0, remote)
	var requests int
	for _, c := range pr.Comments() {
		if strings.Contains(c.Body, marker) {
			requests++
			if want := strings.Replace(m.ReviewRequestBodyTemplate, policy.FinalHeadShaMarker, remote, 1); c.Body != want {
				t.Fatalf("request body %q, want %q", c.Body, want)
			}
		}
	}
	if requests != 1 {
		t.Fatalf("%d request comments carry %s, want 1", requests, marker)
	}
	key := policy.AutomationKey(s.Repository, int64(d.Number), w.runID)
	all, err := w.reg.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, ok, _ := w.reg.Get(context.Background(), key)
	if !ok || a.Status != "ACTIVE" || a.PromptSHA256 != sha256Hex(a.Prompt) || a.Prompt == "" || len(all) != 1 || a.RunID != w.runID {
		t.Fatalf("automation %s: %+v (%d automations)", key, a, len(all))
	}
	if res.AutomationKey != key || res.Status != "ACTIVE" {
		t.Fatalf("result %+v", res)
	}
	// The kept prompt document is the one core accepted, and it renders the
	// registry's prompt.
	run := w.run()
	data, err := run.Read(initial.PromptDocumentFile)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := canon.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if rp := raw.(map[string]any)["rendered_prompt"]; rp != a.Prompt {
		t.Fatal("the registry's prompt is not the kept document's rendered prompt")
	}
	j, err := journal.New(run, initial.Phase, w.plan.PlanHash, m.Operations, nil)
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
}

// bareGit runs git in the git server's bare repository (test setup only).
func (w *world) bareGit(args ...string) string {
	w.t.Helper()
	return w.bareGitIn(w.bed.GitServer.RepoDir(testbed.Owner, testbed.Name), args...)
}

// bareGitIn runs the host git in dir, ignoring every user configuration.
func (w *world) bareGitIn(dir string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/dev/null", "PATH=/usr/bin:/bin:/usr/local/bin"}
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}
