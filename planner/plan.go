package planner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/sandbox"
)

// Plan is a validated initial document and what it was built from.
type Plan struct {
	Doc       schema.InitialDocument
	Raw       any    // the canonical Value of Doc, exactly what was validated
	Canonical []byte // canonical bytes of Raw
	PlanHash  string
	Obs       *local.Observation
	Reused    *ghclient.PRInfo // the PR being reused, if any
	Title     string           // the PR title the plan binds
	Body      string           // the PR body the plan binds
	// RemoteHeadTip is the head branch's tip on GitHub when the plan was
	// observed ("" when the branch does not exist there): the executor's
	// push leases on exactly this value. remote_refs_sha256 binds it.
	RemoteHeadTip string
	// Risk is the accepted risk record when the boundary is
	// explicit-risk-acceptance (its digest is risk_acceptance_sha256);
	// nil under the safe isolation.
	Risk *RiskRecord
}

// RejectedError means core refused the document we built: it is never shown
// as a plan.
type RejectedError struct{ Problems problems.List }

func (e *RejectedError) Error() string {
	return "core rejected the plan built from this checkout: " + e.Problems.Error()
}

// Build observes everything fresh and returns the validated plan.
func Build(ctx context.Context, d Deps, in Inputs, runID string) (*Plan, error) {
	if d.Git == nil || d.GitHub == nil {
		return nil, errors.New("planner: Deps.Git and Deps.GitHub are required")
	}
	mode := in.Mode
	if mode == "" {
		mode = policy.ModeApprovalGated
	}
	if mode != policy.ModeApprovalGated && mode != policy.ModeAutonomous {
		return nil, fmt.Errorf("--mode must be approval-gated or autonomous, got %q", mode)
	}
	obs, err := local.Observe(ctx, local.Options{Dir: in.Dir, Runner: d.Git, Remote: in.Remote, BaseBranch: in.Base, Host: in.Host, AcceptRisk: in.AcceptRisk})
	if err != nil {
		return nil, err
	}
	head := in.Head
	if head == "" {
		head = obs.CurrentBranch
	}
	if head == "" {
		return nil, errors.New("HEAD is detached; pass --head NAME for the pull request's branch")
	}
	if head == obs.BaseBranch {
		return nil, fmt.Errorf("the head branch %q is the base branch; pass --head NAME for a new branch", head)
	}
	repo, err := ghclient.ParseRepo(obs.Repository)
	if err != nil {
		return nil, err
	}
	_, viewerID, err := d.GitHub.Viewer(ctx)
	if err != nil {
		return nil, err
	}
	open, _, err := d.GitHub.OpenPRsForHead(ctx, repo, repo.Owner, head)
	if err != nil {
		return nil, err
	}
	remoteTip, err := branchTip(ctx, d.GitHub, repo, head)
	if err != nil {
		return nil, err
	}

	snap := schema.InitialSnapshot{
		AuthenticatedUserID:  viewerID,
		Commands:             []schema.Command{},
		CommitRequired:       len(obs.Changes) > 0,
		CreateBranchRequired: head != obs.CurrentBranch,
		HeadBranch:           head,
		HeartbeatRRule:       policy.HeartbeatRRule,
		Host:                 policy.Host,
		PolicySchemaVersion:  policy.SchemaVersion,
	}
	obs.ApplyTo(&snap)
	snap.PushRequired = snap.CommitRequired || remoteTip != obs.HeadSHA
	for _, line := range in.Validate {
		c, err := local.ResolveCommandIn(obs.Root, line)
		if err != nil {
			return nil, fmt.Errorf("--validate %q: %w", line, err)
		}
		snap.Commands = append(snap.Commands, c)
	}
	probe := d.Probe
	if probe == nil {
		probe = sandbox.Probe
	}
	risk, err := applyIsolation(&snap, probe(ctx), obs, mode, in.AcceptRisk)
	if err != nil {
		return nil, err
	}
	if snap.OpenPRsSHA256, err = openPRsDigest(open); err != nil {
		return nil, err
	}
	title, body := in.Title, in.Body
	reused, err := reusable(open, obs.Repository, snap)
	if err != nil {
		return nil, err
	}
	if reused != nil {
		n, base, hb, sha, same := reused.Number, reused.BaseRefName, reused.HeadRefName, reused.HeadSHA, true
		snap.ExistingPRNumber, snap.ExistingPRBaseBranch, snap.ExistingPRHeadBranch = &n, &base, &hb
		snap.ExistingPRHeadSHA, snap.ExistingPRSameRepository = &sha, &same
		// A reused PR keeps its own title and body; the plan binds them as they are.
		title, body = reused.Title, reused.Body
	} else if strings.TrimSpace(title) == "" {
		return nil, errors.New("a new pull request needs a title: pass --title")
	}
	if err := checkNames(head, obs, title, body); err != nil {
		return nil, err
	}

	snapHash, err := canon.HashValue(snap)
	if err != nil {
		return nil, err
	}
	tmpl := policy.InitialReviewTemplate(runID)
	man := schema.InitialManifest{
		AutomationPromptTemplate:        policy.AutomationPromptTemplate,
		AutomationPromptTemplateSHA256:  sha256Hex(policy.AutomationPromptTemplate),
		Kind:                            "initial",
		Mode:                            mode,
		Operations:                      validate.ExpectedInitialOperations(snap),
		PRBodySHA256:                    sha256Hex(body),
		PRTitleSHA256:                   sha256Hex(title),
		ReviewRequestBodyTemplate:       tmpl,
		ReviewRequestBodyTemplateSHA256: sha256Hex(tmpl),
		RunID:                           runID,
		SnapshotSHA256:                  snapHash,
		Version:                         1,
	}
	planHash, err := canon.HashValue(man)
	if err != nil {
		return nil, err
	}
	doc := schema.InitialDocument{InitialManifest: man, InitialPlanHash: planHash, InitialSnapshot: snap}
	b, err := canon.Marshal(doc)
	if err != nil {
		return nil, err
	}
	raw, err := canon.Parse(b)
	if err != nil {
		return nil, err
	}
	res, probs := validate.Initial(raw)
	if !probs.Empty() {
		return nil, &RejectedError{Problems: probs}
	}
	return &Plan{Doc: doc, Raw: raw, Canonical: b, PlanHash: res.PlanHash, Obs: obs, Reused: reused, Title: title, Body: body, RemoteHeadTip: remoteTip, Risk: risk}, nil
}

func branchTip(ctx context.Context, gh GitHub, repo ghclient.Repo, branch string) (string, error) {
	tip, _, err := gh.BranchTip(ctx, repo, branch)
	if ghclient.IsNotFound(err) {
		return "", nil
	}
	return tip, err
}

// reusable finds the one open same-repository PR for the head branch. Two, or
// one that cannot be reused as is, stop the plan: guessing would bind the
// approval to the wrong pull request.
func reusable(open []ghclient.PRInfo, repository string, snap schema.InitialSnapshot) (*ghclient.PRInfo, error) {
	var same []ghclient.PRInfo
	for _, p := range open {
		if !p.IsCrossRepository && strings.EqualFold(p.HeadRepo, repository) {
			same = append(same, p)
		}
	}
	switch len(same) {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, fmt.Errorf("%d open pull requests use head branch %q; close all but one", len(same), snap.HeadBranch)
	}
	p := same[0]
	if p.BaseRefName != snap.BaseBranch {
		return nil, fmt.Errorf("pull request #%d merges %q into %q, not %q; pass --base %s or retarget it", p.Number, p.HeadRefName, p.BaseRefName, snap.BaseBranch, p.BaseRefName)
	}
	if p.HeadSHA != snap.CurrentHeadSHA {
		return nil, fmt.Errorf("pull request #%d is at %s but the checkout is at %s; bring them together first", p.Number, short(p.HeadSHA), short(snap.CurrentHeadSHA))
	}
	return &p, nil
}

// openPRsDigest binds the complete normalized list of open PRs for the head
// branch (docs/protocol.md, "open_prs_sha256").
func openPRsDigest(open []ghclient.PRInfo) (string, error) {
	list := make([]any, 0, len(open))
	for _, p := range open {
		list = append(list, map[string]any{
			"number": p.Number, "base_branch": p.BaseRefName, "head_branch": p.HeadRefName,
			"head_sha": p.HeadSHA, "head_repository": strings.ToLower(p.HeadRepo), "is_draft": p.IsDraft,
			"same_repository": !p.IsCrossRepository, "title_sha256": sha256Hex(p.Title), "body_sha256": sha256Hex(p.Body),
		})
	}
	sortByNumber(list)
	return canon.HashValue(list)
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
