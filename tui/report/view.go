// Package report is the report console of `gh-prloop report`: one pull
// request, classified, with its gates, Codex responses and review threads,
// optionally refreshed on a timer. It renders a View that the command
// layer fills from core; it never imports core itself, so the console and
// the classifier can change independently.
package report

// View is everything the console shows. Every string in it is untrusted
// (it comes from GitHub directly or through the classifier) and is
// sanitized when rendered; the command layer passes it through unchanged.
type View struct {
	Repository string // owner/repo
	Number     int64
	Title      string
	URL        string
	State      string // open | closed | merged
	Draft      bool
	HeadSHA    string
	BaseBranch string
	HeadBranch string
	ObservedAt string // when the observation finished

	// Classification is the report-only classification: no-request,
	// awaiting-response, findings, zero-findings or ambiguous.
	Classification string
	Action         string // the evaluator's action ("report" in report-only)
	Reason         string
	Message        string

	Reviewing    bool   // Codex's summary comment or reactions say it is working
	SummaryState string // the summary comment's state, e.g. "running"

	Request   *RequestRow // the canonical pending request; nil when none
	Responses []ResponseRow
	Threads   []ThreadRow
	Gates     Gates
	Notices   []string // Codex notices (usage limits, environment missing, …)

	Simulated   bool   // set by Run from Options.Simulated: the data is the simulator's
	Cost        string // API cost of this observation, already formatted
	Watch       bool   // set by Run (plain watch mode); the console keeps its own countdown
	NextRefresh string // set by Run (plain watch mode), printed by Plain
	Err         string // a problem the caller wants shown (e.g. evaluator errors)
}

// ResponseRow is one Codex response.
type ResponseRow struct {
	Source       string // issue-comment | review | review-comment
	ID           string
	CreatedAt    string
	Commit       string
	ZeroFindings bool
	Qualifies    bool   // answers the current request
	URL          string // on github.com
}

// ThreadRow is one review thread.
type ThreadRow struct {
	Kind     string // actionable | eligible | non-codex | resolved
	Path     string
	Line     int64
	Priority string // P0..P3, or empty
	Title    string
	Author   string
	Body     string // the root comment in full
	URL      string // on github.com
}

// Gates are the four merge gates, each pass | fail | pending | unknown.
type Gates struct {
	Approvals        string
	BranchProtection string
	Checks           string
	Mergeability     string
}

// RequestRow is the review request the responses answer.
type RequestRow struct {
	ID        int64
	CreatedAt string
	HeadSHA   string
	Deadline  string
}

// Actionable counts the actionable threads.
func (v View) Actionable() int {
	n := 0
	for _, t := range v.Threads {
		if t.Kind == "actionable" {
			n++
		}
	}
	return n
}
