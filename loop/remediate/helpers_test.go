package remediate_test

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
type world struct {
	t        *testing.T
	bed      *testbed.Bed
	runID    string
	stateDir string
	plan     *planner.Plan
	init     *initial.Result
	repo     ghclient.Repo

	manifest []byte
	hash     string
	state    []byte
	updates  []remediate.Update
	events   []remediate.Event
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	b, err := testbed.New(ctx, testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	var id [16]byte
	_, _ = rand.Read(id[:])
	w := &world{t: t, bed: b, runID: hex.EncodeToString(id[:]), stateDir: t.TempDir()}
	in := b.Inputs("Add a retry budget", "Retries 502 and 503 within a per-client budget.")
	if w.plan, err = planner.Build(ctx, b.Deps(), in, w.runID); err != nil {
		t.Fatal(err)
	}
	a := statestore.Approval{Document: w.plan.Canonical, PlanHash: w.plan.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: w.plan.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: b.Viewer.Login}
	if _, err := initial.RecordApproval(ctx, w.stateDir, w.runID, a, in); err != nil {
		t.Fatal(err)
	}
	reg, err := automations.Open(w.stateDir)
	if err != nil {
		t.Fatal(err)
	}
	d := initial.Deps{Git: b.Runner, GitHub: b.Client, Registry: initial.FromAutomations(reg), Commands: initial.Sandbox{}}
	if w.init, err = initial.Execute(ctx, d, initial.Job{Run: w.run(), Approval: a, Inputs: in}); err != nil {
		t.Fatalf("initial plan: %v", err)
	}
	w.repo, _ = ghclient.ParseRepo(w.plan.Doc.InitialSnapshot.Repository)
	if b.Sim.Settle() == 0 {
		t.Fatal("the Codex bot did not answer the request")
	}
	w.planRemediation(nil)
	return w
}

func (w *world) run() *statestore.Run {
	w.t.Helper()
	r, err := statestore.OpenPlan(w.stateDir, w.runID)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// planRemediation builds the recurring state from fresh observations (as
// the wakeup does), the remediation manifest with core's builder, and
// checks that core evaluates it to execute-remediation.
func (w *world) planRemediation(commands []schema.Command) {
	t := w.t
	t.Helper()
	ctx := context.Background()
	s := w.plan.Doc.InitialSnapshot
	obs, _, err := w.bed.Client.ObservePR(ctx, w.repo, w.init.PRNumber)
	if err != nil {
		t.Fatal(err)
	}
	commentID, _ := strconv.ParseInt(w.init.CommentID, 10, 64)
	var createdAt string
	for _, c := range obs.IssueComments {
		if c.ID == commentID {
			createdAt = c.CreatedAt
		}
	}
	at, err := schema.ParseTime(createdAt)
	if err != nil {
		t.Fatal(err)
	}
	created := schema.FormatTime(at)
	deadline := schema.FormatTime(at.Add(policy.RequestTimeoutSecs * time.Second))
	req := &classify.Request{CommentID: commentID, CreatedAt: created, HeadSHA: w.init.FinalHeadSHA}
	out := classify.Classify(classify.Input{Obs: obs, Request: req})
	if len(out.Actionable) == 0 {
		t.Fatal("no actionable thread after the findings")
	}
	pr := obs.PullRequest
	key, autoID, remote, head := w.init.AutomationKey, w.init.AutomationID, s.RemoteName, w.init.FinalHeadSHA
	reg, _ := automations.Open(w.stateDir)
	rec, _, _ := reg.Get(ctx, key)
	boundary := s.ExecutionBoundary
	st := schema.State{
		ActionableCodexThreads: out.Actionable, AuthenticatedUserID: obs.ViewerID, AutomationKey: &key,
		Automations: []schema.Automation{{ID: autoID, Key: key, PromptSHA256: rec.PromptSHA256, RRule: rec.RRule, Status: rec.Status}},
		BaseBranch:  s.BaseBranch, BaseSHA: strings.ToLower(pr.BaseSHA), CompletedRequestKeys: []string{},
		CurrentHeadSHA: strings.ToLower(pr.HeadSHA), EligibleCodexThreads: out.Eligible, ExecutionBoundary: &boundary,
		Gates: out.Gates, HeadBranch: s.HeadBranch, Mode: policy.ModeAutonomous, NonCodexRootedThreads: out.NonCodexRooted,
		ObservedAt: obs.ObservedAt, OwnedAutomationID: &autoID, PolicySchemaVersion: policy.SchemaVersion,
		PR: schema.PRState{BaseBranch: pr.BaseRefName, HeadBranch: pr.HeadRefName, HeadSHA: strings.ToLower(pr.HeadSHA),
			IsDraft: pr.IsDraft, Number: pr.Number, SameRepository: !pr.IsCrossRepository, State: strings.ToLower(pr.State), URL: pr.URL},
		RemoteName: &remote, Repository: s.Repository, RequestCommentID: &commentID, RequestCreatedAt: &created,
		RequestDeadline: &deadline, RequestHeadSHA: &head, Responses: out.Responses, RunID: w.runID,
	}
	var paths []string
	for _, th := range obs.Threads {
		paths = append(paths, th.Path)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	wt, err := local.Discover(ctx, w.bed.Runner, w.bed.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := wt.PathRecords(paths)
	if err != nil {
		t.Fatal(err)
	}
	m := evaluate.BuildRemediation(st, evaluate.RemediationInput{Paths: paths, PathRecords: recs, Commands: commands})
	if w.manifest, err = canon.Marshal(m); err != nil {
		t.Fatal(err)
	}
	w.hash = canon.Hash(w.manifest)
	st.RemediationManifest, st.RemediationPlanHash = &m, &w.hash
	if w.state, err = canon.Marshal(st); err != nil {
		t.Fatal(err)
	}
	raw, _ := canon.Parse(w.state)
	if r := evaluate.Evaluate(raw); r.Action != evaluate.ActionExecuteRemediation {
		t.Fatalf("core evaluates the test state to %s/%s: %v", r.Action, r.Reason, r.Errors)
	}
}

// fixerScript writes a fixer that appends a line to each given path (and
// checks it got the contract file as its last argument).
func (w *world) fixerScript(paths ...string) []string {
	w.t.Helper()
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\nfor last; do :; done\ntest -s \"$last\"\ngrep -q thread_id \"$last\"\n")
	for _, p := range paths {
		b.WriteString("printf '\\n// fixed by the test fixer\\n' >> '" + p + "'\n")
	}
	f := filepath.Join(w.t.TempDir(), "fixer.sh")
	if err := os.WriteFile(f, []byte(b.String()), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return []string{"/bin/sh", f}
}

func (w *world) paths() []string {
	var m schema.RemediationManifest
	if err := json.Unmarshal(w.manifest, &m); err != nil {
		w.t.Fatal(err)
	}
	return m.Paths
}

func (w *world) job(fixer []string) remediate.Job {
	return remediate.Job{
		Run: w.run(), Manifest: w.manifest, PlanHash: w.hash, State: w.state, Checkout: w.bed.Checkout,
		TransportURL: w.bed.RepoURL(), Fixer: fixer,
		Revalidate: func(context.Context) (string, error) { return w.hash, nil },
		UpdateAutomation: func(_ context.Context, u remediate.Update) error {
			if len(w.updates) > 0 && w.updates[len(w.updates)-1] == u {
				return nil
			}
			w.updates = append(w.updates, u)
			return nil
		},
		Events: func(e remediate.Event) { w.events = append(w.events, e) },
	}
}

func (w *world) deps(fault func(string) bool) remediate.Deps {
	return remediate.Deps{Git: w.bed.Runner, GitHub: w.bed.Client, Commands: initial.Sandbox{}, Fixer: remediate.FixerSandbox{NoNetwork: true}, Fault: fault}
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

// execute runs the executor as the wakeup does: under the run lock.
func (w *world) execute(fault func(string) bool, fixer []string) (*remediate.Result, error) {
	w.t.Helper()
	job := w.job(fixer)
	unlock, err := job.Run.Lock(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	defer unlock()
	return remediate.Execute(context.Background(), w.deps(fault), job)
}
