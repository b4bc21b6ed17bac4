package initial

import (
	"context"
	"io"
	"time"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/planner"
)

// GitHub is the part of ghclient the executor uses.
type GitHub interface {
	planner.GitHub
	CreatePR(ctx context.Context, repo ghclient.Repo, pr ghclient.NewPR) (*ghclient.PRInfo, error)
	PostComment(ctx context.Context, repo ghclient.Repo, number int64, body string) (*observe.IssueComment, error)
	PullRequest(ctx context.Context, repo ghclient.Repo, number int64) (*ghclient.PRInfo, ghclient.Cost, error)
	ObservePR(ctx context.Context, repo ghclient.Repo, number int64) (*observe.PR, ghclient.Cost, error)
}

// Automation is one registry record as the executor needs it.
type Automation struct {
	ID, Key, Prompt, PromptSHA256, RRule, Status, RunID string
}

// Registry is the automation registry (PROTOCOL §7; package automations).
type Registry interface {
	Get(ctx context.Context, key string) (Automation, bool, error)
	CreatePaused(ctx context.Context, key, name, runID, rrule string, now time.Time) (Automation, error)
	SetPrompt(ctx context.Context, key, prompt string, now time.Time) (Automation, error)
	Activate(ctx context.Context, key, wantPromptSHA256, wantRRule string, now time.Time) (Automation, error)
}

// CommandResult is what one validation command did.
type CommandResult struct {
	ExitCode  int
	Output    []byte // bounded by the runner
	Truncated bool
	TimedOut  bool
}

// Commands runs validation commands in the sandbox. It must return an error,
// never a weaker isolation, when the isolation the plan claims cannot be
// delivered; acceptMissing names the guarantees the approved risk record
// accepted as missing (nil under the safe isolation).
type Commands interface {
	Run(ctx context.Context, argv []string, dir string, acceptMissing []string, tail io.Writer) (CommandResult, error)
}

// Deps are the executor's collaborators.
type Deps struct {
	Git      *gitx.Runner
	GitHub   GitHub
	Registry Registry
	Commands Commands // nil: a plan with validation commands is refused
	// Probe is the sandbox probe the rebuild before fetch-base uses; it
	// must be the one the plan was made with (nil: sandbox.Probe).
	Probe planner.ProbeFunc
	Now   func() time.Time
	// Fault, when set, is asked at "before:<op>" (reserved, side effect
	// not yet done) and "after:<op>" (side effect done, no receipt yet);
	// returning true stops the executor there as a crash would. Tests and
	// the simulator-only PRLOOP_FAULT hook use it.
	Fault func(point string) bool
	// Stop, when set and true, stops the run between two operations
	// (Ctrl+C): an operation under way is never interrupted.
	Stop func() bool
	// Events receives every event in order; nil drops them.
	Events func(Event)
}
