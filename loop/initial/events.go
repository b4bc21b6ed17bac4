package initial

// Event kinds, in the order a run emits them.
const (
	EventRevalidated = "revalidated"        // the rebuilt plan hashed to the approved hash
	EventStarted     = "operation-started"  // an operation begins (or resumes)
	EventOutput      = "operation-output"   // a line of validation output
	EventFinished    = "operation-finished" // receipted
	EventFailed      = "operation-failed"   // halted, with the reason
	EventResult      = "result"             // the run's outcome, last
)

// Event is one line of `apply --json` and one update of the live console.
type Event struct {
	Event   string            `json:"event"`
	Op      string            `json:"op,omitempty"`
	Index   int               `json:"index"`
	Of      int               `json:"of"`
	Detail  string            `json:"detail,omitempty"`
	Receipt map[string]string `json:"receipt,omitempty"`
	// Reconciled is true when a receipt was found by observation (a run
	// resumed after a crash) or the journal already held it.
	Reconciled bool    `json:"reconciled,omitempty"`
	Result     *Result `json:"result,omitempty"`
	Time       string  `json:"time"`
}

// Result is what an executed initial plan produced.
type Result struct {
	RunID         string `json:"run_id"`
	PlanHash      string `json:"plan_hash"`
	FinalHeadSHA  string `json:"final_head_sha"`
	PRNumber      int64  `json:"pr_number"`
	PRURL         string `json:"pr_url"`
	CommentID     string `json:"request_comment_id"`
	AutomationKey string `json:"automation_key"`
	AutomationID  string `json:"automation_id"`
	Status        string `json:"automation_status"`
	NextWakeup    string `json:"next_wakeup"`
}
