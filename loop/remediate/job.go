package remediate

import (
	"context"
	"io"
	"time"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/statestore"
)

// Event is the initial executor's event: `wakeup --json` and the console
// follow every executor the same way.
type Event = initial.Event

// Job is one remediation plan to execute.
type Job struct {
	Run      *statestore.Run // the caller holds the run lock and the claim
	Manifest []byte          // canonical remediation manifest the caller validated with core
	PlanHash string
	// State is the canonical recurring state the evaluator emitted
	// execute-remediation for (before the claim was taken).
	State    []byte
	Checkout string
	// TransportURL is the validated remote's push URL; it must hash to the
	// manifest's transport_url_sha256.
	TransportURL string
	// RiskRecord is the canonical risk acceptance record under
	// explicit-risk-acceptance, "" under the safe isolation.
	RiskRecord string
	// Fixer is the fixer's argv (fixer contract v1: the input file's path
	// is appended as the last argument); nil = approval-gated hand edit.
	Fixer []string
	// Revalidate rebuilds the plan from fresh observations; its hash must
	// equal PlanHash. It runs once, before the first side effect.
	Revalidate func(ctx context.Context) (planHash string, err error)
	// WaitForHandEdit: approval-gated without a fixer, the console says
	// which files to change and returns when the human is done; nil
	// refuses a plan without a fixer.
	WaitForHandEdit func(ctx context.Context, paths []string) error
	// ConfirmDiff shows the resulting diff before commit (approval-gated);
	// an error declines it and nothing is committed. nil skips it.
	ConfirmDiff func(ctx context.Context, diff []byte) error
	// UpdateAutomation records the new round in the checkpoint and the
	// registry. It must be idempotent: a resumed run may call it again
	// with the same Update.
	UpdateAutomation func(ctx context.Context, u Update) error
	Events           func(Event)
}

// Update is what update-automation hands the caller.
type Update struct {
	Round               int    // the fix round just completed (fix_rounds becomes Round)
	FinalHeadSHA        string // the new request head
	RequestCommentID    int64  // the round's request comment
	RequestCreatedAt    string // its creation time (product timestamp)
	CompletedRequestKey string // the manifest's request_key, now completed
}

// GitHub is the part of ghclient the executor uses.
type GitHub interface {
	Viewer(ctx context.Context) (login string, id int64, err error)
	ObservePR(ctx context.Context, repo ghclient.Repo, number int64) (*observe.PR, ghclient.Cost, error)
	PostComment(ctx context.Context, repo ghclient.Repo, number int64, body string) (*observe.IssueComment, error)
	ReplyToThread(ctx context.Context, threadID, body string) (*observe.ThreadComment, error)
}

// Runner runs one command in the sandbox (initial.Sandbox for validation
// commands; FixerSandbox for the fixer).
type Runner interface {
	Run(ctx context.Context, argv []string, dir string, acceptMissing []string, tail io.Writer) (initial.CommandResult, error)
}

// Deps are the executor's collaborators.
type Deps struct {
	Git      *gitx.Runner
	GitHub   GitHub
	Commands Runner // validation commands; nil refuses a plan with commands
	Fixer    Runner // the fixer; nil refuses a plan with a fixer
	Now      func() time.Time
	// Fault is asked at "before:<op>" and "after:<op>" (and, for each
	// reply, "before:reply-to-codex-threads/<k>" and "after:…/<k>");
	// true stops the executor there as a crash would.
	Fault func(point string) bool
	// Stop, when true, stops between two operations.
	Stop func() bool
}

// Result is what an executed remediation plan produced.
type Result struct {
	RunID            string `json:"run_id"`
	PlanHash         string `json:"plan_hash"`
	Round            int    `json:"round"`
	CommitSHA        string `json:"commit_sha"`
	Replies          int    `json:"replies"`
	RequestCommentID int64  `json:"request_comment_id"`
	RequestCreatedAt string `json:"request_created_at"`
}
