// Package looptest builds the loop executors' test world on the
// simulator testbed: a PR opened by the initial executor, Codex's answer,
// and recurring states and plans built the way the wakeup builds them.
// Tests only.
package looptest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
)

// world: a PR opened by the initial executor on the testbed, Codex's
// findings posted, and the remediation plan core accepts for them.
type World struct {
	T        *testing.T
	Bed      *testbed.Bed
	RunID    string
	StateDir string
	Plan     *planner.Plan
	Init     *initial.Result
	Repo     ghclient.Repo

	Manifest []byte
	Hash     string
	State    []byte
	Updates  []remediate.Update
	Events   []remediate.Event
}

func New(t *testing.T) *World {
	t.Helper()
	ctx := context.Background()
	b, err := testbed.New(ctx, testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	var id [16]byte
	_, _ = rand.Read(id[:])
	w := &World{T: t, Bed: b, RunID: hex.EncodeToString(id[:]), StateDir: t.TempDir()}
	in := b.Inputs("Add a retry budget", "Retries 502 and 503 within a per-client budget.")
	if w.Plan, err = planner.Build(ctx, b.Deps(), in, w.RunID); err != nil {
		t.Fatal(err)
	}
	a := statestore.Approval{Document: w.Plan.Canonical, PlanHash: w.Plan.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: w.Plan.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: b.Viewer.Login}
	if _, err := initial.RecordApproval(ctx, w.StateDir, w.RunID, a, in); err != nil {
		t.Fatal(err)
	}
	reg, err := automations.Open(w.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	d := initial.Deps{Git: b.Runner, GitHub: b.Client, Registry: initial.FromAutomations(reg), Commands: initial.Sandbox{}}
	if w.Init, err = initial.Execute(ctx, d, initial.Job{Run: w.Run(), Approval: a, Inputs: in}); err != nil {
		t.Fatalf("initial plan: %v", err)
	}
	w.Repo, _ = ghclient.ParseRepo(w.Plan.Doc.InitialSnapshot.Repository)
	if b.Sim.Settle() == 0 {
		t.Fatal("the Codex bot did not answer the request")
	}
	w.PlanRemediation(nil)
	return w
}

func (w *World) Run() *statestore.Run {
	w.T.Helper()
	r, err := statestore.OpenPlan(w.StateDir, w.RunID)
	if err != nil {
		w.T.Fatal(err)
	}
	return r
}

// Round is the request a recurring state is observed for.
type Round struct {
	CommentID int64
	Head      string
	FixRounds int64
	Completed []string        // completed request keys
	Answered  []schema.Thread // threads a completed round answered
}

// Round0 is the initial plan's request.
func (w *World) Round0() Round {
	id, _ := strconv.ParseInt(w.Init.CommentID, 10, 64)
	return Round{CommentID: id, Head: w.Init.FinalHeadSHA}
}

// ObserveState builds the recurring state from fresh observations, as the
// wakeup does, for the request r (mode autonomous, so core needs no
// approval).
func (w *World) ObserveState(r Round) schema.State {
	t := w.T
	t.Helper()
	ctx := context.Background()
	s := w.Plan.Doc.InitialSnapshot
	obs, _, err := w.Bed.Client.ObservePR(ctx, w.Repo, w.Init.PRNumber)
	if err != nil {
		t.Fatal(err)
	}
	commentID := r.CommentID
	var createdAt string
	for _, c := range obs.IssueComments {
		if c.ID == commentID {
			createdAt = c.CreatedAt
		}
	}
	at, err := schema.ParseTime(createdAt)
	if err != nil {
		t.Fatalf("request %d: %v", commentID, err)
	}
	created := schema.FormatTime(at)
	deadline := schema.FormatTime(at.Add(policy.RequestTimeoutSecs * time.Second))
	req := &classify.Request{CommentID: commentID, CreatedAt: created, HeadSHA: r.Head}
	out := classify.Classify(classify.Input{Obs: obs, Request: req, Answered: r.Answered})
	pr := obs.PullRequest
	key, autoID, remote, head := w.Init.AutomationKey, w.Init.AutomationID, s.RemoteName, r.Head
	reg, _ := automations.Open(w.StateDir)
	rec, _, _ := reg.Get(ctx, key)
	boundary := s.ExecutionBoundary
	completed := append([]string{}, r.Completed...)
	return schema.State{
		ActionableCodexThreads: out.Actionable, AuthenticatedUserID: obs.ViewerID, AutomationKey: &key,
		Automations: []schema.Automation{{ID: autoID, Key: key, PromptSHA256: rec.PromptSHA256, RRule: rec.RRule, Status: rec.Status}},
		BaseBranch:  s.BaseBranch, BaseSHA: strings.ToLower(pr.BaseSHA), CompletedRequestKeys: completed,
		CurrentHeadSHA: strings.ToLower(pr.HeadSHA), EligibleCodexThreads: out.Eligible, ExecutionBoundary: &boundary,
		FixRounds: r.FixRounds, Gates: out.Gates, HeadBranch: s.HeadBranch, Mode: policy.ModeAutonomous, NonCodexRootedThreads: out.NonCodexRooted,
		ObservedAt: obs.ObservedAt, OwnedAutomationID: &autoID, PolicySchemaVersion: policy.SchemaVersion,
		PR: schema.PRState{BaseBranch: pr.BaseRefName, HeadBranch: pr.HeadRefName, HeadSHA: strings.ToLower(pr.HeadSHA),
			IsDraft: pr.IsDraft, Number: pr.Number, SameRepository: !pr.IsCrossRepository, State: strings.ToLower(pr.State), URL: pr.URL},
		RemoteName: &remote, Repository: s.Repository, RequestCommentID: &commentID, RequestCreatedAt: &created,
		RequestDeadline: &deadline, RequestHeadSHA: &head, Responses: out.Responses, RunID: w.RunID,
	}
}

// PlanRemediation builds round 1's remediation manifest with core's
// builder from the observed state and checks that core evaluates it to
// execute-remediation.
func (w *World) PlanRemediation(commands []schema.Command) {
	t := w.T
	t.Helper()
	ctx := context.Background()
	st := w.ObserveState(w.Round0())
	if len(st.ActionableCodexThreads) == 0 {
		t.Fatal("no actionable thread after the findings")
	}
	obs, _, err := w.Bed.Client.ObservePR(ctx, w.Repo, w.Init.PRNumber)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, th := range obs.Threads {
		paths = append(paths, th.Path)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	wt, err := local.Discover(ctx, w.Bed.Runner, w.Bed.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := wt.PathRecords(paths)
	if err != nil {
		t.Fatal(err)
	}
	m := evaluate.BuildRemediation(st, evaluate.RemediationInput{Paths: paths, PathRecords: recs, Commands: commands})
	if w.Manifest, err = canon.Marshal(m); err != nil {
		t.Fatal(err)
	}
	w.Hash = canon.Hash(w.Manifest)
	st.RemediationManifest, st.RemediationPlanHash = &m, &w.Hash
	if w.State, err = canon.Marshal(st); err != nil {
		t.Fatal(err)
	}
	raw, _ := canon.Parse(w.State)
	if r := evaluate.Evaluate(raw); r.Action != evaluate.ActionExecuteRemediation {
		t.Fatalf("core evaluates the test state to %s/%s: %v", r.Action, r.Reason, r.Errors)
	}
}

// fixerScript writes a fixer that appends a line to each given path (and
// checks it got the contract file as its last argument).
func (w *World) FixerScript(paths ...string) []string {
	w.T.Helper()
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\nfor last; do :; done\ntest -s \"$last\"\ngrep -q thread_id \"$last\"\n")
	for _, p := range paths {
		b.WriteString("printf '\\n// fixed by the test fixer\\n' >> '" + p + "'\n")
	}
	f := filepath.Join(w.T.TempDir(), "fixer.sh")
	if err := os.WriteFile(f, []byte(b.String()), 0o755); err != nil {
		w.T.Fatal(err)
	}
	return []string{"/bin/sh", f}
}

func (w *World) Paths() []string {
	var m schema.RemediationManifest
	if err := json.Unmarshal(w.Manifest, &m); err != nil {
		w.T.Fatal(err)
	}
	return m.Paths
}

func (w *World) Job(fixer []string) remediate.Job {
	return remediate.Job{
		Run: w.Run(), Manifest: w.Manifest, PlanHash: w.Hash, State: w.State, Checkout: w.Bed.Checkout,
		TransportURL: w.Bed.RepoURL(), Fixer: fixer,
		Revalidate: func(context.Context) (string, error) { return w.Hash, nil },
		UpdateAutomation: func(_ context.Context, u remediate.Update) error {
			if len(w.Updates) > 0 && w.Updates[len(w.Updates)-1] == u {
				return nil
			}
			w.Updates = append(w.Updates, u)
			return nil
		},
		Events: func(e remediate.Event) { w.Events = append(w.Events, e) },
	}
}

func (w *World) Deps(fault func(string) bool) remediate.Deps {
	return remediate.Deps{Git: w.Bed.Runner, GitHub: w.Bed.Client, Commands: initial.Sandbox{}, Fixer: remediate.FixerSandbox{NoNetwork: true}, Fault: fault}
}

// bareGit runs git in the git server's bare repository (test setup only).
func (w *World) BareGit(args ...string) string {
	w.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = w.Bed.GitServer.RepoDir(testbed.Owner, testbed.Name)
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/dev/null", "PATH=/usr/bin:/bin:/usr/local/bin"}
	out, err := cmd.Output()
	if err != nil {
		w.T.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// execute runs the executor as the wakeup does: under the run lock.
func (w *World) Execute(fault func(string) bool, fixer []string) (*remediate.Result, error) {
	w.T.Helper()
	job := w.Job(fixer)
	unlock, err := job.Run.Lock(context.Background())
	if err != nil {
		w.T.Fatal(err)
	}
	defer unlock()
	return remediate.Execute(context.Background(), w.Deps(fault), job)
}

// Finalization puts core's finalization manifest for st into st and
// checks that core evaluates the result to want; it returns the canonical
// manifest, its hash and the canonical state.
func (w *World) Finalization(st schema.State, want string) (manifest []byte, hash string, state []byte) {
	t := w.T
	t.Helper()
	m := evaluate.BuildFinalization(st)
	manifest, err := canon.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	hash = canon.Hash(manifest)
	st.FinalizationManifest, st.FinalizationPlanHash = &m, &hash
	if state, err = canon.Marshal(st); err != nil {
		t.Fatal(err)
	}
	raw, _ := canon.Parse(state)
	if r := evaluate.Evaluate(raw); r.Action != want {
		t.Fatalf("core evaluates the finalization state to %s/%s, want %s: %v", r.Action, r.Reason, want, r.Errors)
	}
	return manifest, hash, state
}
