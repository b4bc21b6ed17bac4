package classify

import (
	"regexp"
	"strings"
)

// Summary states, as read from a row's status cell.
const (
	SummaryRunning   = "running"
	SummaryCompleted = "completed"
	SummaryFailed    = "failed"
)

// Review kinds of the summary table's rows.
const (
	RowCodeReview     = "code-review"
	RowSecurityReview = "security-review"
)

// securityMarker sometimes follows the summary marker and carries a JSON
// object about the security review; it is shown, never trusted to decide.
const securityMarker = "<!-- codex-security-review:v1"

// reSummaryRow reads one table row of the summary comment: its review cell,
// its status cell and the abbreviated commit in the following cell.
var reSummaryRow = regexp.MustCompile("^\\|([^|]*)\\|([^|]*)\\|\\s*`([0-9a-fA-F]{7,40})`\\s*\\|")

// SummaryRow is one row of the bot's summary table.
type SummaryRow struct {
	Kind   string // code-review | security-review
	State  string // running | completed | failed | "" (a status not known)
	Commit string // lowercase abbreviated commit as shown
	Line   string // the row as posted, for quoting
}

// readSummaryRows returns the rows of a summary comment. A row naming
// neither review kind is skipped: its meaning is not known.
func readSummaryRows(body string) []SummaryRow {
	var rows []SummaryRow
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		m := reSummaryRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		row := SummaryRow{Commit: strings.ToLower(m[3]), Line: line}
		switch {
		case strings.Contains(m[1], "Code Review"):
			row.Kind = RowCodeReview
		case strings.Contains(m[1], "Security Review"):
			row.Kind = RowSecurityReview
		default:
			continue
		}
		switch {
		case strings.Contains(m[2], "**Running**"):
			row.State = SummaryRunning
		case strings.Contains(m[2], "**Completed**"):
			row.State = SummaryCompleted
		case strings.Contains(m[2], "**Failed**"):
			row.State = SummaryFailed
		}
		rows = append(rows, row)
	}
	return rows
}

// summaryState reads the state of the rows of one kind about head. A row for
// another commit says nothing about this one. Running wins over anything
// (one review still in flight means the verdict is not complete), then
// Failed, then Completed.
func summaryState(body, head, kind string) string {
	state := ""
	for _, row := range readSummaryRows(body) {
		if row.Kind == kind && prefixOf(row.Commit, head) {
			state = stronger(state, row.State)
		}
	}
	return state
}

// summaryRowLine is the first row of kind about head in state, for quoting.
func summaryRowLine(body, head, kind, state string) string {
	for _, row := range readSummaryRows(body) {
		if row.Kind == kind && row.State == state && prefixOf(row.Commit, head) {
			return row.Line
		}
	}
	return ""
}

// hasSecurityMarker: the security-review marker stands in the comment's
// leading block of HTML comments, right after the summary marker.
func hasSecurityMarker(body string) bool {
	rest := strings.TrimLeft(strings.TrimPrefix(trimLead(body), summaryMarker), " \t\r\n")
	return strings.HasPrefix(rest, securityMarker)
}
