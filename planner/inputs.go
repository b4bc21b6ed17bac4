package planner

import (
	"context"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
)

// Inputs are what the human chose; together with a run id they determine the
// plan, so a rebuild from the same Inputs must give the same hash unless the
// world changed.
type Inputs struct {
	Dir        string   // any directory inside the checkout
	Remote     string   // remote to validate; "" = the one the branch tracks
	Base       string   // PR base branch; "" = the remote's default branch
	Head       string   // PR head branch; "" = the current branch
	Mode       string   // approval-gated | autonomous
	Title      string   // PR title for a new PR (required unless a PR is reused)
	Body       string   // PR body for a new PR
	Validate   []string // validation command lines, in execution order
	AcceptRisk bool     // observe under explicit-risk-acceptance-v1
	Host       string   // "" = github.com; tests name the simulator
}

// GitHub is the part of ghclient the planner reads.
type GitHub interface {
	Viewer(ctx context.Context) (string, int64, error)
	OpenPRsForHead(ctx context.Context, repo ghclient.Repo, headOwner, branch string) ([]ghclient.PRInfo, ghclient.Cost, error)
	BranchTip(ctx context.Context, repo ghclient.Repo, branch string) (string, ghclient.Cost, error)
}

// Deps are the planner's collaborators.
type Deps struct {
	Git    *gitx.Runner
	GitHub GitHub
	// Probe reports what the sandbox can give here; nil means
	// sandbox.Probe, which needs sandbox.Main in the program (tests
	// inject a probe to see the plan a weaker machine gets).
	Probe ProbeFunc
}
