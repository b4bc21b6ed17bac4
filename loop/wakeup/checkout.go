package wakeup

import (
	"context"
	"errors"
	"fmt"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/statestore"
)

// Checkout is what a plan observes of the local checkout.
type Checkout interface {
	// Boundary is the fresh execution boundary of the run's checkout.
	Boundary(ctx context.Context, run *statestore.Run) (*schema.Boundary, error)
	// Records are the fresh path records of paths and the validation
	// command lines resolved in the checkout.
	Records(ctx context.Context, run *statestore.Run, paths, validate []string) ([]schema.PathRecord, []schema.Command, error)
}

// LocalCheckout observes the run's checkout through package local, with the
// checkout, remote, base and host the initial plan was made with. The
// isolation and risk binding are the approved initial plan's: the sandbox
// decision is the run's, only the git digests are observed again.
type LocalCheckout struct{ Git *gitx.Runner }

func (l LocalCheckout) observe(ctx context.Context, run *statestore.Run) (*local.Observation, error) {
	if l.Git == nil {
		return nil, errors.New("wakeup: no git runner to observe the checkout")
	}
	in, err := initial.ReadInputs(run)
	if err != nil {
		return nil, err
	}
	// The boundary and the path records are local: no ls-remote, so that
	// a wakeup with a stored plan (one awaiting its hash, every two
	// minutes) makes no git network request.
	return local.Observe(ctx, local.Options{Dir: in.Dir, Runner: l.Git, Remote: in.Remote, BaseBranch: in.Base, Host: in.Host, AcceptRisk: in.AcceptRisk, LocalOnly: true})
}

// Boundary implements Checkout.
func (l LocalCheckout) Boundary(ctx context.Context, run *statestore.Run) (*schema.Boundary, error) {
	obs, err := l.observe(ctx, run)
	if err != nil {
		return nil, fmt.Errorf("observing the checkout: %w", err)
	}
	approved, err := approvedBoundary(run)
	if err != nil {
		return nil, err
	}
	b := obs.Boundary
	b.Git.ActiveCleanFilters = append([]string{}, b.Git.ActiveCleanFilters...)
	b.Isolation, b.RiskAcceptanceSHA256 = approved.Isolation, approved.RiskAcceptanceSHA256
	return &b, nil
}

// Records implements Checkout.
func (l LocalCheckout) Records(ctx context.Context, run *statestore.Run, paths, validate []string) ([]schema.PathRecord, []schema.Command, error) {
	obs, err := l.observe(ctx, run)
	if err != nil {
		return nil, nil, fmt.Errorf("observing the checkout: %w", err)
	}
	recs, err := obs.Worktree.PathRecords(paths)
	if err != nil {
		return nil, nil, err
	}
	cmds := []schema.Command{}
	for _, line := range validate {
		c, err := local.ResolveCommandIn(obs.Root, line)
		if err != nil {
			return nil, nil, fmt.Errorf("validation command %q: %w", line, err)
		}
		cmds = append(cmds, c)
	}
	return recs, cmds, nil
}

func approvedBoundary(run *statestore.Run) (schema.Boundary, error) {
	a, err := run.ReadApproval()
	if err != nil {
		return schema.Boundary{}, err
	}
	raw, err := canon.Parse(a.Document)
	if err != nil {
		return schema.Boundary{}, err
	}
	errs := problems.List{}
	doc := schema.DecodeInitialDocument(raw, "", &errs)
	if !errs.Empty() {
		return schema.Boundary{}, errs
	}
	return doc.InitialSnapshot.ExecutionBoundary, nil
}
