package initial_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
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

// memRegistry is an in-memory automation registry with the contract's
// semantics (idempotent CreatePaused, SetPrompt only while PAUSED, Activate
// re-verifies). It counts writes so tests can prove nothing is duplicated.
type memRegistry struct {
	mu      sync.Mutex
	recs    map[string]initial.Automation
	creates int
}

func newMemRegistry() *memRegistry { return &memRegistry{recs: map[string]initial.Automation{}} }

func (r *memRegistry) Get(_ context.Context, key string) (initial.Automation, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.recs[key]
	return a, ok, nil
}

func (r *memRegistry) CreatePaused(_ context.Context, key, name, runID, rrule string, _ time.Time) (initial.Automation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.recs[key]; ok {
		return a, nil
	}
	r.creates++
	a := initial.Automation{ID: fmt.Sprintf("auto-%d", len(r.recs)+1), Key: key, RRule: rrule, Status: "PAUSED", RunID: runID, PromptSHA256: sha256Hex("")}
	r.recs[key] = a
	return a, nil
}

func (r *memRegistry) SetPrompt(_ context.Context, key, prompt string, _ time.Time) (initial.Automation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.recs[key]
	if !ok || a.Status != "PAUSED" {
		return a, fmt.Errorf("SetPrompt: %s is not a PAUSED automation", key)
	}
	a.Prompt, a.PromptSHA256 = prompt, sha256Hex(prompt)
	r.recs[key] = a
	return a, nil
}

func (r *memRegistry) Activate(_ context.Context, key, wantSHA, wantRRule string, _ time.Time) (initial.Automation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.recs[key]
	if !ok || a.PromptSHA256 != wantSHA || a.RRule != wantRRule {
		return a, fmt.Errorf("Activate: %s does not hold the verified prompt and schedule", key)
	}
	a.Status = "ACTIVE"
	r.recs[key] = a
	return a, nil
}

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
	reg     *memRegistry
	plan    *planner.Plan
	pushes0 int
	events  []initial.Event
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
	w := &world{t: t, bed: b, in: b.Inputs(title, body), runID: hex.EncodeToString(id[:]), state: t.TempDir(), reg: newMemRegistry()}
	if mutate != nil {
		mutate(&w.in)
	}
	return w
}

// approve builds the plan and records its approval, as `plan` does.
func (w *world) approve() statestore.Approval {
	w.t.Helper()
	p, err := planner.Build(context.Background(), w.bed.Deps(), w.in, w.runID)
	if err != nil {
		w.t.Fatalf("plan: %v", err)
	}
	w.plan = p
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z", ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: w.bed.Viewer.Login}
	if _, err := statestore.RecordPlanApproval(context.Background(), w.state, w.runID, a); err != nil {
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
	d := initial.Deps{Git: w.bed.Runner, GitHub: w.bed.Client, Registry: w.reg, Fault: fault,
		Events: func(e initial.Event) { w.events = append(w.events, e) }}
	return initial.Execute(context.Background(), d, initial.Job{Run: run, Approval: a, Inputs: w.in})
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
	a, ok, _ := w.reg.Get(context.Background(), key)
	if !ok || a.Status != "ACTIVE" || a.PromptSHA256 != sha256Hex(a.Prompt) || a.Prompt == "" || w.reg.creates != 1 {
		t.Fatalf("automation %s: %+v (creates %d)", key, a, w.reg.creates)
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
	var pd schema.PromptDocument
	raw, err := canon.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	_ = pd
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
	cmd := exec.Command("git", args...)
	cmd.Dir = w.bed.GitServer.RepoDir(testbed.Owner, testbed.Name)
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/dev/null", "PATH=/usr/bin:/bin:/usr/local/bin"}
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}
