// Package inspect is report-only end to end: observe one pull request through
// ghclient, classify it and run the evaluator in report-only mode. It never
// writes to GitHub or to the local checkout.
package inspect

import (
	"context"
	"fmt"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
)

// Result is one complete report-only reading of a PR.
type Result struct {
	Obs        *observe.PR
	State      schema.State
	Classified classify.Output
	Verdict    evaluate.Result
	Cost       ghclient.Cost
	// RequestNodeID is the node id of the review request comment this
	// reading found ("" when none): pass it to the next ObserveWithRequest
	// so that comment's reactions come in the one GraphQL query.
	RequestNodeID string
}

// Observer is the part of ghclient a report needs (a seam for tests).
type Observer interface {
	ObservePRWithRequest(ctx context.Context, repo ghclient.Repo, number int64, requestNodeID string) (*observe.PR, bool, ghclient.Cost, error)
	ReactionsForComment(ctx context.Context, repo ghclient.Repo, commentID int64) ([]observe.Reaction, ghclient.Cost, error)
}

// Observe reads the PR completely and evaluates it, knowing nothing from
// before: see ObserveWithRequest.
func Observe(ctx context.Context, c Observer, repo ghclient.Repo, number int64) (*Result, error) {
	return ObserveWithRequest(ctx, c, repo, number, "")
}

// ObserveWithRequest reads the PR completely and evaluates it. A failed or
// incomplete observation is an error: nothing is ever classified from
// partial data.
//
// Codex's 👀 and a clean round's 👍 land on the review request comment.
// When requestNodeID names the comment that turns out to be the request (a
// refresh of the same round, or the loop's own request), its reactions with
// their times come in the same GraphQL query as everything else (1 point, no
// REST). Otherwise — the first reading, or a new request since — they are
// read over REST once (a conditional GET, free as a 304 on later refreshes).
func ObserveWithRequest(ctx context.Context, c Observer, repo ghclient.Repo, number int64, requestNodeID string) (*Result, error) {
	obs, withRequest, cost, err := c.ObservePRWithRequest(ctx, repo, number, requestNodeID)
	if err != nil {
		return nil, err
	}
	nodeID := ""
	if req := classify.FindRequest(obs); req != nil {
		nodeID = commentNodeID(obs, req.CommentID)
		if !withRequest || nodeID == "" || nodeID != requestNodeID {
			rs, rcost, err := c.ReactionsForComment(ctx, repo, req.CommentID)
			cost.Add(rcost)
			if err != nil {
				return nil, fmt.Errorf("reactions on review request %d: %w", req.CommentID, err)
			}
			obs.Reactions = append(obs.Reactions, rs...)
		}
	}
	r, err := Evaluate(obs)
	if err != nil {
		return nil, err
	}
	r.Cost, r.RequestNodeID = cost, nodeID
	return r, nil
}

func commentNodeID(obs *observe.PR, id int64) string {
	for _, c := range obs.IssueComments {
		if c.ID == id {
			return c.NodeID
		}
	}
	return ""
}

// Evaluate is the pure half: report-only state from the observation, then the
// evaluator on that state's canonical form (exactly what `evaluate --state`
// would see), refined with the classifier's notices.
func Evaluate(obs *observe.PR) (*Result, error) {
	st, out := classify.ReportState(obs)
	b, err := canon.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encode report state: %w", err)
	}
	raw, err := canon.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("re-read report state: %w", err)
	}
	verdict := evaluate.Refine(evaluate.Evaluate(raw), st, out.Notices)
	return &Result{Obs: obs, State: st, Classified: out, Verdict: verdict}, nil
}
