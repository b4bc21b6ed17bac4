package initial

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/docdiff"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/step"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
)

// Phase is the journal phase of the initial plan.
const Phase = "initial"

// PromptDocumentFile is where the bootstrap prompt document core accepted
// is kept in the run directory.
const PromptDocumentFile = "prompt-document.json"

// Job is one approved initial plan to execute.
type Job struct {
	// Run is the run directory holding the approval; the executor takes
	// its lock for the whole execution.
	Run      *statestore.Run
	Approval statestore.Approval
	// Inputs are the plan's inputs exactly as they were when it was
	// approved; the rebuild before fetch-base uses them.
	Inputs planner.Inputs
}

// exec is one execution's working state. Values learnt from earlier
// receipts (on a resumed run) or operations (on a fresh one) are kept here.
type exec struct {
	d    Deps
	job  Job
	doc  schema.InitialDocument
	snap schema.InitialSnapshot
	man  schema.InitialManifest
	repo ghclient.Repo
	j    *journal.Journal
	ops  []string

	// From the fetch-base reservation (captured at the rebuild).
	root, transportURL, lease, title string
	risk                             string // canonical risk record, "" under the safe isolation

	viewerID    int64
	viewerLogin string
	stagedTree  string
	finalHead   string
	prNumber    int64
	prURL       string
	commentID   string
	requestAt   string
	result      Result
}

// Execute runs the approved plan to its end, or to the first halt. It is
// safe to call again after any crash: receipted operations are skipped and a
// reservation without a receipt is reconciled by observation.
func Execute(ctx context.Context, d Deps, job Job) (*Result, error) {
	if d.Git == nil || d.GitHub == nil || d.Registry == nil {
		return nil, errors.New("initial: Deps.Git, Deps.GitHub and Deps.Registry are required")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if err := job.Approval.Validate(); err != nil {
		return nil, err
	}
	x := &exec{d: d, job: job}
	if err := x.decode(); err != nil {
		return nil, err
	}
	if len(x.snap.Commands) > 0 && d.Commands == nil {
		return nil, errors.New("the plan has validation commands but no sandbox can run them here; nothing was done")
	}
	unlock, err := job.Run.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", x.man.RunID, err)
	}
	defer unlock()

	if x.j, err = journal.New(job.Run, Phase, job.Approval.PlanHash, x.ops, d.Now); err != nil {
		return nil, err
	}
	entries, err := x.j.Load()
	if err != nil {
		return nil, err
	}
	if entries[0] == nil {
		// Nothing has run yet: this is "immediately before fetch-base".
		if err := x.revalidate(ctx); err != nil {
			return nil, err
		}
	} else {
		in := entries[0].Intent
		x.root, x.transportURL, x.lease, x.title, x.risk = in["root"], in["transport_url"], in["lease"], in["pr_title"], in["risk_record"]
	}
	if err := x.checkBindings(); err != nil {
		return nil, err
	}
	for i, op := range x.ops {
		if e := entries[i]; e.Done() {
			x.absorb(op, e.Receipt)
			x.emit(Event{Event: EventFinished, Op: op, Index: i, Receipt: e.Receipt, Reconciled: true, Detail: "already done (journal)"})
			continue
		}
		if ctx.Err() != nil || d.Stop != nil && d.Stop() {
			return nil, ErrInterrupted
		}
		resumed := entries[i] != nil
		detail := ""
		if resumed {
			detail = "reservation without a receipt: reconciling by observation"
		}
		x.emit(Event{Event: EventStarted, Op: op, Index: i, Detail: detail})
		if _, err := x.j.Reserve(i, x.intent(op)); err != nil {
			return nil, x.fail(i, op, err)
		}
		receipt, found, err := x.run(ctx, op)
		if err != nil {
			return nil, x.fail(i, op, err)
		}
		if _, err := x.j.Complete(i, receipt); err != nil {
			return nil, x.fail(i, op, err)
		}
		x.absorb(op, receipt)
		x.emit(Event{Event: EventFinished, Op: op, Index: i, Receipt: receipt, Reconciled: found})
	}
	res := x.result
	x.emit(Event{Event: EventResult, Index: len(x.ops), Result: &res})
	return &res, nil
}

func (x *exec) decode() error {
	raw, err := canon.Parse(x.job.Approval.Document)
	if err != nil {
		return fmt.Errorf("approved document: %w", err)
	}
	res, probs := validate.Initial(raw)
	if !probs.Empty() {
		return fmt.Errorf("the approved document no longer validates: %w", probs)
	}
	if res.PlanHash != x.job.Approval.PlanHash {
		return fmt.Errorf("the approved document hashes to %s, not the approved %s", res.PlanHash, x.job.Approval.PlanHash)
	}
	var errs problems.List
	x.doc = schema.DecodeInitialDocument(raw, "", &errs)
	if !errs.Empty() {
		return errs
	}
	x.snap, x.man, x.ops = x.doc.InitialSnapshot, x.doc.InitialManifest, x.doc.InitialManifest.Operations
	x.repo, err = ghclient.ParseRepo(x.snap.Repository)
	if err != nil {
		return err
	}
	x.finalHead = x.snap.CurrentHeadSHA
	x.result = Result{RunID: x.man.RunID, PlanHash: x.job.Approval.PlanHash, FinalHeadSHA: x.finalHead}
	return nil
}

// revalidate rebuilds snapshot, manifest and hash from fresh observations
// and runs core's --initial on them (planner.Build does both); the hash must
// equal the approved one byte for byte. The rebuild also yields what later
// operations need and the approved document cannot say: the checkout root,
// the transport URL behind transport_url_sha256, the lease for the push.
func (x *exec) revalidate(ctx context.Context) error {
	in := x.job.Inputs
	in.Mode = x.man.Mode
	p, err := planner.Build(ctx, planner.Deps{Git: x.d.Git, GitHub: x.d.GitHub, Probe: x.d.Probe}, in, x.man.RunID)
	if err != nil {
		return fmt.Errorf("rebuilding the plan before fetch-base: %w; nothing was done", err)
	}
	if p.PlanHash != x.job.Approval.PlanHash {
		changes, derr := docdiff.Diff(x.job.Approval.Document, p.Canonical)
		if derr != nil {
			return derr
		}
		return &DriftError{Approved: x.job.Approval.PlanHash, Rebuilt: p.PlanHash, Changes: changes}
	}
	x.root, x.transportURL, x.lease, x.title = p.Obs.Root, p.Obs.TransportURL, p.RemoteHeadTip, p.Title
	if p.Risk != nil {
		b, err := canon.Marshal(p.Risk)
		if err != nil {
			return err
		}
		x.risk = string(b)
	}
	x.emit(Event{Event: EventRevalidated, Detail: "the rebuilt plan hashes to the approved " + p.PlanHash})
	return nil
}

// checkBindings re-derives what the approved digests bind from the values
// the executor will use: the transport URL and the PR title.
func (x *exec) checkBindings() error {
	if err := step.CheckTransport(x.snap.ExecutionBoundary, x.transportURL); err != nil {
		return err
	}
	if sha256Hex(x.title) != x.man.PRTitleSHA256 {
		return errors.New("the pull request title does not hash to the approved pr_title_sha256; nothing more is done")
	}
	if x.root == "" {
		return errors.New("the checkout root is unknown")
	}
	_, err := x.acceptedRisks()
	return err
}

// intent is what the reservation of op records before its side effect.
func (x *exec) intent(op string) map[string]string {
	s := x.snap
	switch op {
	case policy.OpFetchBase:
		return map[string]string{"root": x.root, "transport_url": x.transportURL, "lease": x.lease, "pr_title": x.title, "risk_record": x.risk,
			"remote": s.RemoteName, "base_branch": s.BaseBranch, "base_sha": s.BaseSHA}
	case policy.OpCreateBranch:
		return map[string]string{"branch": s.HeadBranch, "at": s.CurrentHeadSHA}
	case policy.OpRunValidation:
		return map[string]string{"commands": fmt.Sprint(len(s.Commands))}
	case policy.OpStageFiles:
		return map[string]string{"diff_sha256": s.DiffSHA256}
	case policy.OpCommit:
		return map[string]string{"parent": s.CurrentHeadSHA, "tree": x.stagedTree, "trailer": trailer(x.man.RunID)}
	case policy.OpPush:
		return map[string]string{"ref": "refs/heads/" + s.HeadBranch, "new": x.finalHead, "lease": x.lease}
	case policy.OpCreatePR:
		return map[string]string{"head": s.HeadBranch, "base": s.BaseBranch, "title_sha256": x.man.PRTitleSHA256, "body_sha256": x.man.PRBodySHA256}
	case policy.OpReusePR:
		return map[string]string{"pr_number": fmt.Sprint(*s.ExistingPRNumber)}
	case policy.OpRequestCodexReview:
		return map[string]string{"pr_number": fmt.Sprint(x.prNumber), "marker": policy.RequestMarker(x.man.RunID, 0, x.finalHead)}
	case policy.OpBootstrapAutomation:
		return map[string]string{"key": x.key()}
	}
	return map[string]string{}
}

func (x *exec) key() string { return policy.AutomationKey(x.snap.Repository, x.prNumber, x.man.RunID) }

// absorb takes what later operations need from a receipt.
func (x *exec) absorb(op string, r map[string]string) {
	switch op {
	case policy.OpStageFiles:
		x.stagedTree = r["tree"]
	case policy.OpCommit:
		x.finalHead = r["commit_sha"]
	case policy.OpCreatePR, policy.OpReusePR:
		fmt.Sscan(r["pr_number"], &x.prNumber)
		x.prURL = r["pr_url"]
	case policy.OpRequestCodexReview:
		x.commentID, x.requestAt = r["comment_id"], r["created_at"]
	case policy.OpBootstrapAutomation:
		x.result.AutomationKey, x.result.AutomationID, x.result.Status = r["automation_key"], r["automation_id"], r["status"]
		x.result.NextWakeup = schema.FormatTime(x.d.Now().Add(2 * time.Minute))
	}
	x.result.FinalHeadSHA, x.result.PRNumber, x.result.PRURL, x.result.CommentID = x.finalHead, x.prNumber, x.prURL, x.commentID
}

// run performs one operation. found reports that the receipt was found by
// observation rather than made by acting now.
func (x *exec) run(ctx context.Context, op string) (receipt map[string]string, found bool, err error) {
	switch op {
	case policy.OpFetchBase:
		return x.fetchBase(ctx)
	case policy.OpCreateBranch:
		return x.createBranch(ctx)
	case policy.OpRunValidation:
		return x.runValidation(ctx)
	case policy.OpStageFiles:
		return x.stageFiles(ctx)
	case policy.OpCommit:
		return x.commit(ctx)
	case policy.OpPush:
		return x.push(ctx)
	case policy.OpCreatePR:
		return x.createPR(ctx)
	case policy.OpReusePR:
		return x.reusePR(ctx)
	case policy.OpRequestCodexReview:
		return x.requestReview(ctx)
	case policy.OpBootstrapAutomation:
		return x.bootstrap(ctx)
	}
	return nil, false, fmt.Errorf("unknown operation %q", op)
}

// fault asks the fault hook whether to stop at point.
func (x *exec) fault(point string) error {
	if x.d.Fault != nil && x.d.Fault(point) {
		return ErrCrashed
	}
	return nil
}

func (x *exec) fail(i int, op string, err error) error {
	if !errors.Is(err, ErrCrashed) {
		x.emit(Event{Event: EventFailed, Op: op, Index: i, Detail: err.Error()})
	}
	return err
}

func (x *exec) emit(e Event) {
	if x.d.Events == nil {
		return
	}
	e.Of = len(x.ops)
	e.Time = schema.FormatTime(x.d.Now())
	x.d.Events(e)
}

// acceptedRisks are the sandbox guarantees the approved risk record
// accepts as missing (step.AcceptedRisks).
func (x *exec) acceptedRisks() ([]string, error) {
	return step.AcceptedRisks(x.snap.ExecutionBoundary, x.risk)
}
