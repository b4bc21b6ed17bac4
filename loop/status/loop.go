package status

import (
	"errors"
	"time"
)

// ErrLocked is what a wakeup returns when another process (a scheduled
// `gh-prloop wakeup`, another console) holds the run lock. The console says
// so and refreshes once the lock is released; it never waits on the lock
// itself.
var ErrLocked = errors.New("status: the run lock is held by another wakeup")

// Loop is one loop as the console shows it.
type Loop struct {
	Key        string // the automation key
	RunID      string
	Repository string // owner/repo
	Number     int64
	Title      string
	URL        string
	Mode       string // approval-gated | autonomous
	Round      int    // completed fix rounds
	MaxRounds  int    // the policy limit

	Automation Automation
	NextWakeup time.Time // zero: none scheduled (paused, done)

	Request *Request // the current review request; nil before the first
	Threads []Thread
	Gates   []Gate

	Next      Next       // what the evaluator decided on the latest state
	Execution *Execution // the operations of the plan being executed; nil when none
	History   []Entry    // oldest first
	Lock      Lock

	ObservedAt  time.Time // when the latest state was observed
	FinalizedAt time.Time // zero until finish-finalization recorded it
	MergeGate   string    // the final merge-gate report, one line per gate
	Err         string    // a problem building the model (shown, not fatal)
}

// Automation is the registry record's status.
type Automation struct {
	Status string // ACTIVE | PAUSED | "" (deleted)
	Reason string // why it is paused
	RRule  string
}

// Codex states of a request.
const (
	CodexNone     = ""          // nothing yet
	CodexRunning  = "running"   // 👀 on the request, or a summary that says so
	CodexSummary  = "summary"   // a summary row (Completed, Failed, …)
	CodexThumbsUp = "thumbs-up" // 👍: a clean review
	CodexAnswered = "answered"  // findings or an explicit clean comment
	CodexNotice   = "notice"    // a usage-limit or environment notice
)

// Request is the current review request and what Codex did with it.
type Request struct {
	CommentID int64
	HeadSHA   string
	CreatedAt time.Time
	Deadline  time.Time
	Codex     string // one of the Codex states
	Summary   string // the summary row's text, for CodexSummary
	Notice    string // the notice text, for CodexNotice
}

// Thread is one review thread. Body is markdown.
type Thread struct {
	ID       string
	URL      string
	Kind     string // actionable | eligible | non-codex | resolved
	Path     string
	Line     int64
	Priority string
	Title    string
	Author   string
	Body     string
}

// Gate is one merge gate and what it waits on when it does not pass.
type Gate struct {
	Name      string // approvals | branch protection | checks | mergeability
	State     string // pass | fail | pending | unknown
	WaitingOn string // e.g. "1 more approving review", "ci/build"
}

// Next is the evaluator's decision on the latest state.
type Next struct {
	Action   string
	Reason   string
	Message  string
	PlanHash string // the plan awaiting approval or being executed
	PlanKind string // remediation | finalization
}

// Execution is the live operation list of a plan being executed.
type Execution struct {
	PlanHash   string
	PlanKind   string
	Operations []Operation
}

// Operation states.
const (
	OpPending = "pending"
	OpRunning = "running"
	OpDone    = "done"
	OpFailed  = "failed"
)

// Operation is one operation of an executing plan.
type Operation struct {
	Name    string
	State   string
	Receipt string // the one result a human looks for (commit, comment id)
	Message string // why it failed
}

// Entry kinds.
const (
	EntryWakeup    = "wakeup"
	EntryOperation = "operation"
)

// Entry is one line of the history: a wakeup, or one executed operation.
type Entry struct {
	Time     time.Time
	Kind     string
	Action   string // wakeup: the action taken
	Reason   string
	Requests int // wakeup: REST requests charged
	Points   int // wakeup: GraphQL points spent
	Op       string
	Receipt  string
	Failed   bool
	Message  string
}

// Lock is who holds the run lock, when someone does.
type Lock struct {
	HeldBy string // e.g. "scheduled wakeup (pid 4242)"; "" when free
	Since  time.Time
}
