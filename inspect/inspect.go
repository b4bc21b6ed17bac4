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
}

// Observer is the part of ghclient a report needs (a seam for tests).
type Observer interface {
	ObservePR(ctx context.Context, repo ghclient.Repo, number int64) (*observe.PR, ghclient.Cost, error)
	ReactionsForComment(ctx context.Context, repo ghclient.Repo, commentID int64) ([]observe.Reaction, ghclient.Cost, error)
}

// Observe reads the PR completely and evaluates it. A failed or incomplete
// observation is an error: nothing is ever classified from partial data.
//
// Codex's 👀 lands on the review request comment, which the bulk GraphQL
// observation does not carry (reactions on every comment would double its
// point cost), so the reactions of that one comment are read over REST.
// That read is conditional: while nobody reacts it is a free 304.
func Observe(ctx context.Context, c Observer, repo ghclient.Repo, number int64) (*Result, error) {
	obs, cost, err := c.ObservePR(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	if req := classify.FindRequest(obs); req != nil {
		rs, rcost, err := c.ReactionsForComment(ctx, repo, req.CommentID)
		cost.Add(rcost)
		if err != nil {
			return nil, fmt.Errorf("reactions on review request %d: %w", req.CommentID, err)
		}
		obs.Reactions = append(obs.Reactions, rs...)
	}
	r, err := Evaluate(obs)
	if err != nil {
		return nil, err
	}
	r.Cost = cost
	return r, nil
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
