package initial

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/gitx"
)

// bootstrap turns the run into an automation: a PAUSED stub in the
// registry, the bootstrap snapshot and recurring state from fresh
// observations, the prompt document, core's --prompt (prompt-ready only),
// the rendered prompt written and read back with its hash and schedule
// verified, then ACTIVE. The accepted prompt document is kept in the run
// directory before the registry sees the prompt, so that a crash between
// the two is reconciled against exactly that document.
func (x *exec) bootstrap(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpBootstrapAutomation
	key := x.key()
	now := x.d.Now()
	rec, ok, err := x.d.Registry.Get(ctx, key)
	if err != nil {
		return nil, false, err
	}
	kept, err := x.keptPrompt()
	if err != nil {
		return nil, false, err
	}
	if ok && rec.Status == "ACTIVE" {
		if kept == "" || rec.PromptSHA256 != sha256Hex(kept) {
			return nil, false, halt(op, "automation %s is ACTIVE with a prompt this run did not validate", key)
		}
		return x.automationReceipt(rec), true, nil
	}
	if !ok {
		if err := x.fault("before:" + op); err != nil {
			return nil, false, err
		}
		name := fmt.Sprintf("%s #%d", x.snap.Repository, x.prNumber)
		if rec, err = x.d.Registry.CreatePaused(ctx, key, name, x.man.RunID, policy.HeartbeatRRule, now); err != nil {
			return nil, false, err
		}
	}
	if rec.RunID != "" && rec.RunID != x.man.RunID {
		return nil, false, halt(op, "automation %s belongs to run %s", key, rec.RunID)
	}
	prompt := kept
	if prompt == "" || rec.Prompt != kept {
		// No prompt was set from a kept document: build one from fresh
		// observations (again, if a crash interrupted the first attempt).
		if prompt, err = x.promptDocument(ctx, rec); err != nil {
			return nil, false, err
		}
		if rec, err = x.d.Registry.SetPrompt(ctx, key, prompt, now); err != nil {
			return nil, false, err
		}
	}
	// Read back and verify the exact prompt and schedule before activation.
	back, ok, err := x.d.Registry.Get(ctx, key)
	if err != nil {
		return nil, false, err
	}
	want := sha256Hex(prompt)
	if !ok || back.Prompt != prompt || back.PromptSHA256 != want || back.RRule != policy.HeartbeatRRule || back.Status != "PAUSED" {
		return nil, false, halt(op, "the registry entry read back is not the validated PAUSED prompt with schedule %s", policy.HeartbeatRRule)
	}
	if rec, err = x.d.Registry.Activate(ctx, key, want, policy.HeartbeatRRule, now); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	if rec.Status != "ACTIVE" {
		return nil, false, halt(op, "the registry reports %s after activation", rec.Status)
	}
	return x.automationReceipt(rec), false, nil
}

func (x *exec) automationReceipt(rec Automation) map[string]string {
	return map[string]string{"automation_id": rec.ID, "automation_key": rec.Key, "prompt_sha256": rec.PromptSHA256, "status": rec.Status}
}

// keptPrompt is the rendered prompt of the prompt document kept in the run
// directory, "" when none was kept. The kept document is validated again.
func (x *exec) keptPrompt() (string, error) {
	data, err := x.job.Run.Read(PromptDocumentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	raw, err := canon.Parse(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", PromptDocumentFile, err)
	}
	res, probs := bootstrap.Prompt(raw)
	if !probs.Empty() {
		return "", fmt.Errorf("%s no longer validates: %w", PromptDocumentFile, probs)
	}
	if res.AutomationKey != x.key() {
		return "", fmt.Errorf("%s is for automation %s, not %s", PromptDocumentFile, res.AutomationKey, x.key())
	}
	return res.RenderedPrompt, nil
}

// promptDocument builds the bootstrap prompt document from fresh
// observations, has core validate it (prompt-ready only), keeps it, and
// returns the rendered prompt.
func (x *exec) promptDocument(ctx context.Context, stub Automation) (string, error) {
	const op = policy.OpBootstrapAutomation
	s, m := x.snap, x.man
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.prNumber)
	if err != nil {
		return "", err
	}
	created, err := schema.ParseTime(x.requestAt)
	if err != nil {
		return "", err
	}
	commentID, err := strconv.ParseInt(x.commentID, 10, 64)
	if err != nil {
		return "", fmt.Errorf("request comment id %q: %w", x.commentID, err)
	}
	req := &classify.Request{CommentID: commentID, CreatedAt: x.requestAt, HeadSHA: x.finalHead}
	out := classify.Classify(classify.Input{Obs: obs, Request: req})
	pr := obs.PullRequest
	key, id, remote := x.key(), stub.ID, s.RemoteName
	createdAt := schema.FormatTime(created)
	deadline := schema.FormatTime(created.Add(policy.RequestTimeoutSecs * time.Second))
	head := x.finalHead
	promptSHA := stub.PromptSHA256
	if promptSHA == "" {
		promptSHA = sha256Hex(stub.Prompt)
	}
	state := schema.State{
		ActionableCodexThreads: out.Actionable,
		AuthenticatedUserID:    obs.ViewerID,
		AutomationKey:          &key,
		Automations:            []schema.Automation{{ID: id, Key: key, PromptSHA256: promptSHA, RRule: stub.RRule, Status: stub.Status}},
		BaseBranch:             s.BaseBranch,
		BaseSHA:                strings.ToLower(pr.BaseSHA),
		CompletedRequestKeys:   []string{},
		CurrentHeadSHA:         strings.ToLower(pr.HeadSHA),
		EligibleCodexThreads:   out.Eligible,
		Gates:                  out.Gates,
		HeadBranch:             s.HeadBranch,
		Mode:                   m.Mode,
		NonCodexRootedThreads:  out.NonCodexRooted,
		ObservedAt:             obs.ObservedAt,
		OwnedAutomationID:      &id,
		PolicySchemaVersion:    policy.SchemaVersion,
		PR: schema.PRState{
			BaseBranch: pr.BaseRefName, HeadBranch: pr.HeadRefName, HeadSHA: strings.ToLower(pr.HeadSHA),
			IsDraft: pr.IsDraft, Number: pr.Number, SameRepository: !pr.IsCrossRepository,
			State: strings.ToLower(pr.State), URL: pr.URL,
		},
		RemoteName:       &remote,
		Repository:       s.Repository,
		RequestCommentID: &commentID,
		RequestCreatedAt: &createdAt,
		RequestDeadline:  &deadline,
		RequestHeadSHA:   &head,
		Responses:        out.Responses,
		RunID:            m.RunID,
	}
	remoteHead, err := x.remoteTip(ctx, s.HeadBranch)
	if err != nil {
		return "", err
	}
	descends, err := x.isAncestor(ctx, s.CurrentHeadSHA, x.finalHead)
	if err != nil {
		return "", err
	}
	clean, err := x.worktreeClean(ctx)
	if err != nil {
		return "", err
	}
	body := bootstrap.RenderReviewBody(m.ReviewRequestBodyTemplate, x.finalHead)
	bs := schema.BootstrapSnapshot{
		InitialPlanHash: x.job.Approval.PlanHash,
		PostWriteReceipt: schema.Receipt{
			BaseSHA: s.BaseSHA, FinalHeadSHA: x.finalHead, HeadDescendsFromInitial: descends,
			InitialHeadSHA: s.CurrentHeadSHA, Paths: s.Paths, PRHeadSHA: strings.ToLower(pr.HeadSHA),
			PushedDiffSHA256: s.DiffSHA256, RemoteHeadSHA: remoteHead,
			ReviewRequestBody: body, ReviewRequestBodySHA256: sha256Hex(body), WorktreeClean: clean,
		},
		PRURL:           x.prURL,
		RequestDeadline: deadline,
		State:           state,
	}
	bsBytes, err := canon.Marshal(bs)
	if err != nil {
		return "", err
	}
	bsRaw, err := canon.Parse(bsBytes)
	if err != nil {
		return "", err
	}
	rendered, err := bootstrap.Render(key, bsRaw)
	if err != nil {
		return "", err
	}
	docRaw, err := canon.Parse(x.job.Approval.Document)
	if err != nil {
		return "", err
	}
	pd := map[string]any{
		"initial_document":          docRaw,
		"bootstrap_snapshot":        bsRaw,
		"bootstrap_snapshot_sha256": canon.Hash(bsBytes),
		"rendered_prompt":           rendered,
		"rendered_prompt_sha256":    sha256Hex(rendered),
	}
	pdBytes, err := canon.Marshal(pd)
	if err != nil {
		return "", err
	}
	pdRaw, err := canon.Parse(pdBytes)
	if err != nil {
		return "", err
	}
	res, probs := bootstrap.Prompt(pdRaw)
	if !probs.Empty() {
		return "", halt(op, "core refused the prompt document: %v", probs)
	}
	if res.AutomationKey != key || res.RenderedPrompt != rendered {
		return "", halt(op, "core rendered a different prompt or key (%s)", res.AutomationKey)
	}
	if err := x.job.Run.WriteAtomic(PromptDocumentFile, pdBytes); err != nil {
		return "", err
	}
	return rendered, nil
}

func (x *exec) isAncestor(ctx context.Context, a, b string) (bool, error) {
	_, err := x.git(ctx, "merge-base", "--is-ancestor", a, b)
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Err == nil && ge.ExitCode == 1 {
		return false, nil
	}
	return err == nil, err
}

func (x *exec) worktreeClean(ctx context.Context) (bool, error) {
	out, err := x.d.Git.Run(ctx, x.root, "status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(out)) == 0, nil
}
