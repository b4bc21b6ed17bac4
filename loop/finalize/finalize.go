package finalize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/step"
	"github.com/prloop/gh-prloop/statestore"
)

// Journal phases of the two plans.
const (
	Phase       = "finalization"
	PhaseFinish = "finalization-finish"
)

// Event is the initial executor's event shape.
type Event = initial.Event

// HaltError names the operation and what it saw.
type HaltError = initial.HaltError

// ErrCrashed is returned when Deps.Fault stopped the run.
var ErrCrashed = initial.ErrCrashed

// ErrInterrupted: stopped between two operations.
var ErrInterrupted = initial.ErrInterrupted

func halt(op, format string, args ...any) error {
	return &HaltError{Op: op, Saw: fmt.Sprintf(format, args...)}
}

// GitHub is the part of ghclient finalization uses.
type GitHub interface {
	ObservePR(ctx context.Context, repo ghclient.Repo, number int64) (*observe.PR, ghclient.Cost, error)
	MarkReadyForReview(ctx context.Context, repo ghclient.Repo, number int64) error
	ResolveThread(ctx context.Context, threadID string) error
}

// Registry is the automation registry as Finish needs it
// (*automations.Registry).
type Registry interface {
	Get(ctx context.Context, key string) (automations.Record, bool, error)
	Delete(ctx context.Context, key string) error
}

// Deps are the collaborators.
type Deps struct {
	GitHub   GitHub
	Registry Registry // Finish only
	Now      func() time.Time
	// Fault is asked at "before:<op>" and "after:<op>" (per thread:
	// "before:resolve-codex-threads/<k>"); true stops there as a crash.
	Fault func(point string) bool
	Stop  func() bool
}

// Job is the first finalization plan.
type Job struct {
	Run        *statestore.Run // the caller holds the run lock and the claim
	Manifest   []byte          // canonical finalization manifest
	PlanHash   string
	State      []byte // the canonical state core evaluated to execute-finalization
	Revalidate func(ctx context.Context) (planHash string, err error)
	Events     func(Event)
}

// Finalized is what Finish hands the caller to record.
type Finalized struct {
	At     string // finalized_at: the deletion's receipt time
	Report schema.MergeGateReport
}

// FinishJob is the second, post-mutation plan (delete-owned-automation only).
type FinishJob struct {
	Run        *statestore.Run
	Manifest   []byte
	PlanHash   string
	State      []byte // the canonical state core evaluated to finish-finalization
	Revalidate func(ctx context.Context) (planHash string, err error)
	// Finalized records finalized_at and the merge-gate report in the
	// checkpoint; it must be idempotent (a resumed Finish calls it again
	// with the same values).
	Finalized func(ctx context.Context, f Finalized) error
	Events    func(Event)
}

// Result is what a finalization plan did.
type Result struct {
	RunID       string                  `json:"run_id"`
	PlanHash    string                  `json:"plan_hash"`
	MarkedReady bool                    `json:"marked_ready,omitempty"`
	Resolved    int                     `json:"resolved_threads"`
	Deleted     string                  `json:"deleted_automation,omitempty"`
	FinalizedAt string                  `json:"finalized_at,omitempty"`
	Report      *schema.MergeGateReport `json:"merge_gate_report,omitempty"`
}

type exec struct {
	d      Deps
	run    *statestore.Run
	hash   string
	state  schema.State
	m      schema.FinalizationManifest
	repo   ghclient.Repo
	ops    []string
	events func(Event)
	res    Result
}

// decode checks the documents: canonical manifest hashing to planHash,
// equal to the state's finalization_manifest, and core evaluating the
// state to want for exactly this plan.
func decode(d Deps, run *statestore.Run, manifest []byte, planHash string, stateBytes []byte, want string) (*exec, error) {
	if d.GitHub == nil || run == nil {
		return nil, errors.New("finalize: Deps.GitHub and the run are required")
	}
	if c, err := canon.Canonicalize(manifest); err != nil || !bytes.Equal(c, manifest) {
		return nil, errors.New("finalize: the manifest is not canonical JSON")
	}
	if h := canon.Hash(manifest); h != planHash {
		return nil, fmt.Errorf("finalize: the manifest hashes to %s, not the plan hash %s", h, planHash)
	}
	raw, err := canon.Parse(stateBytes)
	if err != nil {
		return nil, fmt.Errorf("finalize: state: %w", err)
	}
	var errs problems.List
	x := &exec{d: d, run: run, hash: planHash}
	x.state = schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		return nil, fmt.Errorf("finalize: state: %w", errs)
	}
	if r := evaluate.EvaluateState(x.state, raw); r.Action != want || r.PlanHash != planHash {
		return nil, fmt.Errorf("finalize: core evaluates the state to %s/%s for plan %q, not %s of %s", r.Action, r.Reason, r.PlanHash, want, planHash)
	}
	if x.state.FinalizationManifest == nil {
		return nil, errors.New("finalize: the state has no finalization manifest")
	}
	if sm, _ := canon.Marshal(x.state.FinalizationManifest); !bytes.Equal(sm, manifest) {
		return nil, errors.New("finalize: the manifest is not the state's finalization_manifest")
	}
	x.m = *x.state.FinalizationManifest
	if x.repo, err = ghclient.ParseRepo(x.m.Repository); err != nil {
		return nil, err
	}
	if x.d.Now == nil {
		x.d.Now = time.Now
	}
	x.res = Result{RunID: x.m.RunID, PlanHash: planHash}
	return x, nil
}

// Execute runs the first finalization plan's GitHub operations.
// delete-owned-automation, which always ends the list, is left for Finish
// on the fresh post-mutation plan.
func Execute(ctx context.Context, d Deps, job Job) (*Result, error) {
	x, err := decode(d, job.Run, job.Manifest, job.PlanHash, job.State, evaluate.ActionExecuteFinalization)
	if err != nil {
		return nil, err
	}
	if job.Revalidate == nil {
		return nil, errors.New("finalize: Job.Revalidate is required")
	}
	x.events = job.Events
	ops := x.m.Operations
	if len(ops) == 0 || ops[len(ops)-1] != policy.OpDeleteAutomation {
		return nil, errors.New("finalize: the plan does not end with delete-owned-automation")
	}
	x.ops = ops[:len(ops)-1]
	if len(x.ops) == 0 {
		return nil, errors.New("finalize: the plan has no GitHub operation; it is a post-mutation plan for Finish")
	}
	return x.loop(ctx, Phase, job.Revalidate)
}

// Finish runs the post-mutation plan: delete the owned automation, then
// hand finalized_at and the fresh merge-gate report to the caller.
func Finish(ctx context.Context, d Deps, job FinishJob) (*Result, error) {
	x, err := decode(d, job.Run, job.Manifest, job.PlanHash, job.State, evaluate.ActionFinishFinalization)
	if err != nil {
		return nil, err
	}
	if d.Registry == nil || job.Finalized == nil || job.Revalidate == nil {
		return nil, errors.New("finalize: Deps.Registry, FinishJob.Revalidate and FinishJob.Finalized are required")
	}
	x.events = job.Events
	if !slices.Equal(x.m.Operations, []string{policy.OpDeleteAutomation}) || x.m.PRIsDraft || len(x.m.EligibleThreads) > 0 {
		return nil, errors.New("finalize: the post-mutation plan must be exactly delete-owned-automation, not a draft, no eligible thread")
	}
	x.ops = x.m.Operations
	res, err := x.loop(ctx, PhaseFinish, job.Revalidate)
	if err != nil {
		return nil, err
	}
	report := schema.MergeGateReport{Gates: x.m.Gates, ReadAt: x.state.ObservedAt}
	res.Report = &report
	if err := job.Finalized(ctx, Finalized{At: res.FinalizedAt, Report: report}); err != nil {
		return nil, fmt.Errorf("recording finalized_at: %w", err)
	}
	return res, nil
}

func (x *exec) loop(ctx context.Context, phase string, revalidate func(context.Context) (string, error)) (*Result, error) {
	j, err := journal.New(x.run, phase, x.hash, x.ops, x.d.Now)
	if err != nil {
		return nil, err
	}
	entries, err := j.Load()
	if err != nil {
		return nil, err
	}
	if entries[0] == nil {
		got, err := revalidate(ctx)
		if err != nil {
			return nil, fmt.Errorf("rebuilding the finalization plan from fresh observations: %w; nothing was done", err)
		}
		if got != x.hash {
			return nil, fmt.Errorf("the world changed since the plan was made: it now hashes to %s, not %s; nothing was done", got, x.hash)
		}
		x.emit(Event{Event: initial.EventRevalidated, Detail: "the rebuilt plan hashes to " + got})
	}
	for i, op := range x.ops {
		if e := entries[i]; e.Done() {
			x.absorb(op, e)
			x.emit(Event{Event: initial.EventFinished, Op: op, Index: i, Receipt: e.Receipt, Reconciled: true, Detail: "already done (journal)"})
			continue
		}
		if ctx.Err() != nil || x.d.Stop != nil && x.d.Stop() {
			return nil, ErrInterrupted
		}
		x.emit(Event{Event: initial.EventStarted, Op: op, Index: i})
		if _, err := j.Reserve(i, x.intent(op)); err != nil {
			return nil, x.fail(i, op, err)
		}
		receipt, found, err := x.runOp(ctx, op)
		if err != nil {
			return nil, x.fail(i, op, err)
		}
		e, err := j.Complete(i, receipt)
		if err != nil {
			return nil, x.fail(i, op, err)
		}
		x.absorb(op, e)
		x.emit(Event{Event: initial.EventFinished, Op: op, Index: i, Receipt: receipt, Reconciled: found})
	}
	res := x.res
	x.emit(Event{Event: initial.EventResult, Index: len(x.ops), Detail: "finalization operations done: " + fmt.Sprint(x.ops)})
	return &res, nil
}

func (x *exec) intent(op string) map[string]string {
	switch op {
	case policy.OpMarkDraftReady:
		return map[string]string{"pr_number": strconv.FormatInt(x.m.PRNumber, 10)}
	case policy.OpResolveCodexThreads:
		return map[string]string{"threads": strconv.Itoa(len(x.m.EligibleThreads))}
	case policy.OpDeleteAutomation:
		return map[string]string{"key": x.key(), "id": x.ownedID()}
	}
	return map[string]string{}
}

func (x *exec) absorb(op string, e *journal.Entry) {
	switch op {
	case policy.OpMarkDraftReady:
		x.res.MarkedReady = true
	case policy.OpResolveCodexThreads:
		x.res.Resolved, _ = strconv.Atoi(e.Receipt["resolved"])
	case policy.OpDeleteAutomation:
		x.res.Deleted = e.Receipt["deleted"]
		if e.ReceiptedAt != nil {
			x.res.FinalizedAt = *e.ReceiptedAt
		}
	}
}

func (x *exec) runOp(ctx context.Context, op string) (map[string]string, bool, error) {
	switch op {
	case policy.OpMarkDraftReady:
		return x.markReady(ctx)
	case policy.OpResolveCodexThreads:
		return x.resolve(ctx)
	case policy.OpDeleteAutomation:
		return x.deleteAutomation(ctx)
	}
	return nil, false, fmt.Errorf("unknown operation %q", op)
}

func (x *exec) key() string {
	if x.state.AutomationKey == nil {
		return ""
	}
	return *x.state.AutomationKey
}

func (x *exec) ownedID() string {
	if x.state.OwnedAutomationID == nil {
		return ""
	}
	return *x.state.OwnedAutomationID
}

func (x *exec) fault(point string) error {
	if x.d.Fault != nil && x.d.Fault(point) {
		return ErrCrashed
	}
	return nil
}

func (x *exec) fail(i int, op string, err error) error {
	if !errors.Is(err, ErrCrashed) {
		x.emit(Event{Event: initial.EventFailed, Op: op, Index: i, Detail: err.Error()})
	}
	return err
}

func (x *exec) emit(e Event) {
	if x.events == nil {
		return
	}
	e.Of = len(x.ops)
	e.Time = schema.FormatTime(x.d.Now())
	x.events(e)
}

// markReady takes the PR out of draft; a PR already ready is the receipt.
func (x *exec) markReady(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpMarkDraftReady
	draft, err := x.isDraft(ctx)
	if err != nil {
		return nil, false, err
	}
	if !draft {
		return map[string]string{"is_draft": "false"}, true, nil
	}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if err := x.d.GitHub.MarkReadyForReview(ctx, x.repo, x.m.PRNumber); err != nil && !step.DeliveryUnknown(err) {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	if draft, err = x.isDraft(ctx); err != nil {
		return nil, false, err
	}
	if draft {
		// Delivery unknown or not applied yet: not a halt; the next wakeup
		// observes again before sending anything.
		return nil, false, fmt.Errorf("%s: pull request #%d is still a draft; the next wakeup looks again", op, x.m.PRNumber)
	}
	return map[string]string{"is_draft": "false"}, false, nil
}

func (x *exec) isDraft(ctx context.Context) (bool, error) {
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
	if err != nil {
		return false, err
	}
	pr := obs.PullRequest
	if pr.State != "" && pr.State != "OPEN" && pr.State != "open" {
		return false, halt(policy.OpMarkDraftReady, "pull request #%d is %s", x.m.PRNumber, pr.State)
	}
	return pr.IsDraft, nil
}

// resolve resolves each eligible thread once, and only while it is still
// the thread the plan snapshot (same body, position, content version): a
// thread Codex changed since is new work, not something to close.
func (x *exec) resolve(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpResolveCodexThreads
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
	if err != nil {
		return nil, false, err
	}
	receipt := map[string]string{"resolved": strconv.Itoa(len(x.m.EligibleThreads))}
	allFound := true
	for k, want := range x.m.EligibleThreads {
		i := slices.IndexFunc(obs.Threads, func(t observe.Thread) bool { return t.ID == want.ID })
		if i < 0 {
			return nil, false, halt(op, "thread %s is gone", want.ID)
		}
		t := obs.Threads[i]
		receipt[fmt.Sprintf("thread_%d", k+1)] = want.ID
		if t.IsResolved {
			continue
		}
		if snap, ok := classify.Snapshot(t); !ok || snap != want {
			return nil, false, halt(op, "thread %s changed since the plan was made; it is not resolved", want.ID)
		}
		allFound = false
		point := fmt.Sprintf("%s/%d", op, k+1)
		if err := x.fault("before:" + point); err != nil {
			return nil, false, err
		}
		if err := x.d.GitHub.ResolveThread(ctx, want.ID); err != nil && !step.DeliveryUnknown(err) {
			return nil, false, err
		}
		if err := x.fault("after:" + point); err != nil {
			return nil, false, err
		}
	}
	if !allFound {
		again, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
		if err != nil {
			return nil, false, err
		}
		for _, want := range x.m.EligibleThreads {
			for _, t := range again.Threads {
				if t.ID == want.ID && !t.IsResolved {
					return nil, false, fmt.Errorf("%s: thread %s is still unresolved; the next wakeup looks again", op, want.ID)
				}
			}
		}
	}
	return receipt, allFound, nil
}

// deleteAutomation deletes the owned automation: exactly the key and id
// of the state; an automation already gone is the receipt.
func (x *exec) deleteAutomation(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpDeleteAutomation
	key, id := x.key(), x.ownedID()
	rec, ok, err := x.d.Registry.Get(ctx, key)
	if err != nil {
		return nil, false, err
	}
	receipt := map[string]string{"deleted": key, "id": id}
	if !ok {
		return receipt, true, nil
	}
	if rec.ID != id || rec.RunID != x.m.RunID {
		return nil, false, halt(op, "automation %s is %s of run %s, not the owned %s of run %s", key, rec.ID, rec.RunID, id, x.m.RunID)
	}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if err := x.d.Registry.Delete(ctx, key); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	if _, ok, err := x.d.Registry.Get(ctx, key); err != nil || ok {
		return nil, false, halt(op, "automation %s is still in the registry (%v)", key, err)
	}
	return receipt, false, nil
}
