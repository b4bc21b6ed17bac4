package remediate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/step"
)

// Phase is the journal phase of fix round n.
func Phase(round int) string { return "remediation-" + strconv.Itoa(round) }

// ErrCrashed is returned when Deps.Fault stopped the run.
var ErrCrashed = initial.ErrCrashed

// ErrInterrupted: stopped between two operations; a later wakeup resumes.
var ErrInterrupted = initial.ErrInterrupted

// HaltError names the operation and what it saw.
type HaltError = initial.HaltError

func halt(op, format string, args ...any) error {
	return &HaltError{Op: op, Saw: fmt.Sprintf(format, args...)}
}

type exec struct {
	d      Deps
	job    Job
	m      schema.RemediationManifest
	state  schema.State
	round  int
	repo   ghclient.Repo
	g      step.Git
	j      *journal.Journal
	accept []string

	viewerLogin string
	viewerID    int64
	commitSHA   string
	replies     int
	commentID   int64
	requestAt   string
}

// Execute runs the plan to its end or to the first halt. It is safe to call
// again after any crash: receipted operations are skipped and a reservation
// without a receipt is reconciled by observation.
func Execute(ctx context.Context, d Deps, job Job) (*Result, error) {
	if d.Git == nil || d.GitHub == nil {
		return nil, errors.New("remediate: Deps.Git and Deps.GitHub are required")
	}
	if job.Run == nil || job.UpdateAutomation == nil || job.Revalidate == nil {
		return nil, errors.New("remediate: Job.Run, Job.Revalidate and Job.UpdateAutomation are required")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	x := &exec{d: d, job: job, g: step.Git{Runner: d.Git, Root: job.Checkout}}
	if err := x.decode(); err != nil {
		return nil, err
	}
	switch {
	case len(x.m.Commands) > 0 && d.Commands == nil:
		return nil, errors.New("the plan has validation commands but no sandbox can run them here; nothing was done")
	case job.Fixer == nil && job.WaitForHandEdit == nil:
		return nil, errors.New("no fixer and no console to edit by hand: a remediation without a fixer needs approval-gated mode on a terminal; nothing was done")
	case job.Fixer != nil && d.Fixer == nil:
		return nil, errors.New("a fixer is set but no sandbox can run it here; nothing was done")
	}
	var err error
	if x.j, err = journal.New(job.Run, Phase(x.round), job.PlanHash, x.m.Operations, d.Now); err != nil {
		return nil, err
	}
	entries, err := x.j.Load()
	if err != nil {
		return nil, err
	}
	if entries[0] == nil {
		// Nothing has run yet: this is immediately before the first side effect.
		got, err := job.Revalidate(ctx)
		if err != nil {
			return nil, fmt.Errorf("rebuilding the remediation plan from fresh observations: %w; nothing was done", err)
		}
		if got != job.PlanHash {
			return nil, fmt.Errorf("the world changed since the plan was made: it now hashes to %s, not %s; nothing was done", got, job.PlanHash)
		}
		x.emit(Event{Event: initial.EventRevalidated, Detail: "the rebuilt plan hashes to " + got})
	}
	for i, op := range x.m.Operations {
		if e := entries[i]; e.Done() {
			x.absorb(op, e.Receipt)
			x.emit(Event{Event: initial.EventFinished, Op: op, Index: i, Receipt: e.Receipt, Reconciled: true, Detail: "already done (journal)"})
			continue
		}
		if ctx.Err() != nil || d.Stop != nil && d.Stop() {
			return nil, ErrInterrupted
		}
		detail := ""
		if entries[i] != nil {
			detail = "reservation without a receipt: reconciling by observation"
		}
		x.emit(Event{Event: initial.EventStarted, Op: op, Index: i, Detail: detail})
		if _, err := x.j.Reserve(i, x.intent(op)); err != nil {
			return nil, x.fail(i, op, err)
		}
		receipt, found, err := x.run(ctx, op, entries[i] != nil)
		if err != nil {
			return nil, x.fail(i, op, err)
		}
		if _, err := x.j.Complete(i, receipt); err != nil {
			return nil, x.fail(i, op, err)
		}
		x.absorb(op, receipt)
		x.emit(Event{Event: initial.EventFinished, Op: op, Index: i, Receipt: receipt, Reconciled: found})
	}
	res := &Result{RunID: x.m.RunID, PlanHash: job.PlanHash, Round: x.round, CommitSHA: x.commitSHA,
		Replies: x.replies, RequestCommentID: x.commentID, RequestCreatedAt: x.requestAt}
	x.emit(Event{Event: initial.EventResult, Index: len(x.m.Operations), Detail: fmt.Sprintf("fix round %d pushed as %s", x.round, x.commitSHA)})
	return res, nil
}

// decode checks the job's documents: the manifest is canonical and hashes
// to PlanHash, it is the state's remediation_manifest, and core evaluates
// the state to execute-remediation of exactly this plan.
func (x *exec) decode() error {
	c, err := canon.Canonicalize(x.job.Manifest)
	if err != nil || !bytes.Equal(c, x.job.Manifest) {
		return errors.New("remediate: the manifest is not canonical JSON")
	}
	if h := canon.Hash(x.job.Manifest); h != x.job.PlanHash {
		return fmt.Errorf("remediate: the manifest hashes to %s, not the plan hash %s", h, x.job.PlanHash)
	}
	raw, err := canon.Parse(x.job.State)
	if err != nil {
		return fmt.Errorf("remediate: state: %w", err)
	}
	var errs problems.List
	x.state = schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		return fmt.Errorf("remediate: state: %w", errs)
	}
	r := evaluate.EvaluateState(x.state, raw)
	if r.Action != evaluate.ActionExecuteRemediation || r.PlanHash != x.job.PlanHash {
		return fmt.Errorf("remediate: core evaluates the state to %s/%s for plan %q, not execute-remediation of %s", r.Action, r.Reason, r.PlanHash, x.job.PlanHash)
	}
	if x.state.RemediationManifest == nil {
		return errors.New("remediate: the state has no remediation manifest")
	}
	if sm, _ := canon.Marshal(x.state.RemediationManifest); !bytes.Equal(sm, x.job.Manifest) {
		return errors.New("remediate: the manifest is not the state's remediation_manifest")
	}
	x.m = *x.state.RemediationManifest
	x.round = int(x.state.FixRounds) + 1
	if x.repo, err = ghclient.ParseRepo(x.m.Repository); err != nil {
		return err
	}
	if err := step.CheckTransport(x.m.Execution, x.job.TransportURL); err != nil {
		return err
	}
	if x.accept, err = step.AcceptedRisks(x.m.Execution, x.job.RiskRecord); err != nil {
		return err
	}
	if x.job.Checkout == "" {
		return errors.New("remediate: the checkout is unknown")
	}
	x.commitSHA = x.m.CurrentHeadSHA
	return nil
}

func (x *exec) runTrailer() string   { return "Prloop-Run: " + x.m.RunID }
func (x *exec) roundTrailer() string { return "Prloop-Round: " + strconv.Itoa(x.round) }

// ReplyMarker is the hidden marker of a reply (PROTOCOL §8): one reply per
// thread and round.
func ReplyMarker(runID string, round int, threadID string) string {
	return "<!-- github-codex-pr-loop-reply run=" + runID + " round=" + strconv.Itoa(round) + " thread=" + threadID + " -->"
}

func (x *exec) intent(op string) map[string]string {
	m := x.m
	switch op {
	case policy.OpEditFiles:
		fixer := "hand-edit"
		if x.job.Fixer != nil {
			fixer = fmt.Sprintf("%q", x.job.Fixer)
		}
		return map[string]string{"head": m.CurrentHeadSHA, "paths": fmt.Sprint(len(m.Paths)), "fixer": fixer}
	case policy.OpRunValidation:
		return map[string]string{"commands": fmt.Sprint(len(m.Commands))}
	case policy.OpCommit:
		return map[string]string{"parent": m.CurrentHeadSHA, "trailer": x.runTrailer(), "round": strconv.Itoa(x.round)}
	case policy.OpPush:
		return map[string]string{"ref": "refs/heads/" + m.HeadBranch, "new": x.commitSHA, "lease": m.CurrentHeadSHA}
	case policy.OpReplyToCodexThreads:
		return map[string]string{"threads": fmt.Sprint(len(m.ActionableThreads)), "round": strconv.Itoa(x.round)}
	case policy.OpRequestCodexReview:
		return map[string]string{"marker": policy.RequestMarker(m.RunID, x.round, x.commitSHA)}
	case policy.OpUpdateAutomation:
		return map[string]string{"round": strconv.Itoa(x.round), "head": x.commitSHA, "comment_id": strconv.FormatInt(x.commentID, 10)}
	}
	return map[string]string{}
}

func (x *exec) absorb(op string, r map[string]string) {
	switch op {
	case policy.OpCommit:
		x.commitSHA = r["commit_sha"]
	case policy.OpReplyToCodexThreads:
		x.replies, _ = strconv.Atoi(r["replies"])
	case policy.OpRequestCodexReview:
		x.commentID, _ = strconv.ParseInt(r["comment_id"], 10, 64)
		x.requestAt = r["created_at"]
	}
}

func (x *exec) run(ctx context.Context, op string, resumed bool) (map[string]string, bool, error) {
	switch op {
	case policy.OpEditFiles:
		return x.editFiles(ctx, resumed)
	case policy.OpRunValidation:
		return x.runValidation(ctx)
	case policy.OpCommit:
		return x.commit(ctx)
	case policy.OpPush:
		return x.push(ctx)
	case policy.OpReplyToCodexThreads:
		return x.reply(ctx)
	case policy.OpRequestCodexReview:
		return x.request(ctx)
	case policy.OpUpdateAutomation:
		return x.update(ctx)
	}
	return nil, false, fmt.Errorf("unknown operation %q", op)
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
	if x.job.Events == nil {
		return
	}
	e.Of = len(x.m.Operations)
	e.Time = schema.FormatTime(x.d.Now())
	x.job.Events(e)
}

func (x *exec) viewer(ctx context.Context) (string, int64, error) {
	if x.viewerID == 0 {
		login, id, err := x.d.GitHub.Viewer(ctx)
		if err != nil {
			return "", 0, err
		}
		if id != x.state.AuthenticatedUserID {
			return "", 0, fmt.Errorf("authenticated as %s (%d), the loop belongs to user %d", login, id, x.state.AuthenticatedUserID)
		}
		x.viewerLogin, x.viewerID = login, id
	}
	return x.viewerLogin, x.viewerID, nil
}
