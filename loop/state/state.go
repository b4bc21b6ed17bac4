// Package state assembles a loop's complete recurring state (PROTOCOL §5)
// for one wakeup: GitHub observed fresh through ghclient and classified by
// core/classify, the automation registry, and the run's checkpoint (request,
// rounds, claim, plans and approvals). The checkout is observed only when
// the caller passes an execution boundary, i.e. when the action needs it: an
// idle wakeup costs one GraphQL query and no git network operation.
package state

import (
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/checkpoint"
)

// GitHub is the part of ghclient a state needs (a seam for tests).
type GitHub interface {
	ObservePRWithRequest(ctx context.Context, repo ghclient.Repo, number int64, requestNodeID string) (*observe.PR, bool, ghclient.Cost, error)
	ReactionsForComment(ctx context.Context, repo ghclient.Repo, commentID int64) ([]observe.Reaction, ghclient.Cost, error)
}

// Deps are the state's sources besides the checkpoint.
type Deps struct {
	GitHub   GitHub
	Registry *automations.Registry
}

// Snapshot is one wakeup's recurring state with what it was built from.
type Snapshot struct {
	State      schema.State
	Canonical  []byte // canonical JSON of State: what the evaluator read
	Obs        *observe.PR
	Classified classify.Output
	Cost       ghclient.Cost
	// RequestNodeID is the request comment's node id as observed; the
	// caller records it in the checkpoint so that the next wakeup reads the
	// request's reactions in the same query.
	RequestNodeID string
}

// Observe reads the pull request once, with the request's reactions: in
// the one GraphQL query when the checkpoint knows the request's node id,
// otherwise over REST once (the first wakeup of a round).
func Observe(ctx context.Context, gh GitHub, c *checkpoint.Checkpoint) (*observe.PR, string, ghclient.Cost, error) {
	repo, err := ghclient.ParseRepo(c.Repository)
	if err != nil {
		return nil, "", ghclient.Cost{}, err
	}
	obs, withRequest, cost, err := gh.ObservePRWithRequest(ctx, repo, c.PRNumber, c.RequestNodeID)
	if err != nil {
		return nil, "", cost, err
	}
	nodeID := ""
	for _, ic := range obs.IssueComments {
		if ic.ID == c.RequestCommentID {
			nodeID = ic.NodeID
		}
	}
	if !withRequest || nodeID != c.RequestNodeID {
		rs, rc, err := gh.ReactionsForComment(ctx, repo, c.RequestCommentID)
		cost.Add(rc)
		if err != nil {
			return nil, "", cost, fmt.Errorf("reactions on review request %d: %w", c.RequestCommentID, err)
		}
		obs.Reactions = append(obs.Reactions, rs...)
	}
	return obs, nodeID, cost, nil
}

// Build observes GitHub and assembles the state. boundary is the fresh
// execution boundary of the checkout, nil when the action does not need
// the checkout.
func Build(ctx context.Context, d Deps, c *checkpoint.Checkpoint, boundary *schema.Boundary) (*Snapshot, error) {
	obs, nodeID, cost, err := Observe(ctx, d.GitHub, c)
	if err != nil {
		return nil, err
	}
	autos, err := d.Registry.AsState(c.AutomationKey)
	if err != nil {
		return nil, err
	}
	snap, err := Assemble(c, obs, autos, boundary)
	if err != nil {
		return nil, err
	}
	snap.Cost, snap.RequestNodeID = cost, nodeID
	return snap, nil
}

// Assemble is the pure part of Build: the state from one observation, the
// registry's entries for the key and the checkpoint.
func Assemble(c *checkpoint.Checkpoint, obs *observe.PR, autos []schema.Automation, boundary *schema.Boundary) (*Snapshot, error) {
	req := &classify.Request{CommentID: c.RequestCommentID, CreatedAt: c.RequestCreatedAt, HeadSHA: c.RequestHeadSHA}
	out := classify.Classify(classify.Input{Obs: obs, Request: req, Answered: c.AnsweredThreads})
	pr := obs.PullRequest
	key, id, remote := c.AutomationKey, c.AutomationID, c.RemoteName
	commentID, created, deadline, head := c.RequestCommentID, c.RequestCreatedAt, c.RequestDeadline, c.RequestHeadSHA
	if autos == nil {
		autos = []schema.Automation{}
	}
	s := schema.State{
		ActionableCodexThreads: out.Actionable,
		AuthenticatedUserID:    obs.ViewerID,
		AutomationKey:          &key,
		Automations:            autos,
		BaseBranch:             c.BaseBranch,
		BaseSHA:                strings.ToLower(pr.BaseSHA),
		Claim:                  c.Claim,
		CompletedRequestKeys:   append([]string{}, c.CompletedRequestKeys...),
		CurrentHeadSHA:         strings.ToLower(pr.HeadSHA),
		EligibleCodexThreads:   out.Eligible,
		ExecutionBoundary:      boundary,
		FinalizationApproval:   c.FinalizationApproval,
		FinalizationManifest:   c.FinalizationManifest,
		FinalizationPlanHash:   c.FinalizationPlanHash,
		FinalizedAt:            c.FinalizedAt,
		FixRounds:              c.FixRounds,
		Gates:                  out.Gates,
		HeadBranch:             c.HeadBranch,
		MergeGateReport:        c.MergeGateReport,
		Mode:                   c.Mode,
		NonCodexRootedThreads:  out.NonCodexRooted,
		ObservedAt:             obs.ObservedAt,
		OwnedAutomationID:      &id,
		PolicySchemaVersion:    policy.SchemaVersion,
		PR: schema.PRState{
			BaseBranch: pr.BaseRefName, HeadBranch: pr.HeadRefName, HeadSHA: strings.ToLower(pr.HeadSHA),
			IsDraft: pr.IsDraft, Number: pr.Number, SameRepository: !pr.IsCrossRepository,
			State: strings.ToLower(pr.State), URL: pr.URL,
		},
		RemediationApproval: c.RemediationApproval,
		RemediationManifest: c.RemediationManifest,
		RemediationPlanHash: c.RemediationPlanHash,
		RemoteName:          &remote,
		Repository:          c.Repository,
		RequestCommentID:    &commentID,
		RequestCreatedAt:    &created,
		RequestDeadline:     &deadline,
		RequestHeadSHA:      &head,
		Responses:           out.Responses,
		RunID:               c.RunID,
	}
	data, err := canon.Marshal(s)
	if err != nil {
		return nil, err
	}
	return &Snapshot{State: s, Canonical: data, Obs: obs, Classified: out}, nil
}
