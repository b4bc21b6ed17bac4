package approval

import "github.com/prloop/gh-prloop/core/docdiff"

// Outcome is how the console ended.
type Outcome int

// Outcomes. Pending is the outcome of a console that has not ended.
const (
	Pending Outcome = iota
	Approved
	Cancelled
	Drift
	Failed
)

func (o Outcome) String() string {
	switch o {
	case Approved:
		return "approved"
	case Cancelled:
		return "cancelled"
	case Drift:
		return "drift"
	case Failed:
		return "failed"
	}
	return "pending"
}

// ExitCode follows the gh CLI: 0 approved, 2 cancelled, 1 otherwise (a
// drift, a failure, or a console that never finished).
func (o Outcome) ExitCode() int {
	switch o {
	case Approved:
		return 0
	case Cancelled:
		return 2
	}
	return 1
}

// Result is the outcome with what the caller needs to report it.
type Result struct {
	Outcome     Outcome
	Statement   string           // Approved: Record's one-line statement
	RebuiltHash string           // Drift: the rebuilt plan's hash
	Changes     []docdiff.Change // Drift: the changed fields (empty if the documents could not be compared)
	Files       []string         // Drift: the changed files, each "path (what changed)", when the re-check named its blobs
	Err         error            // Failed: why; Drift: why the documents could not be compared, if so
}
