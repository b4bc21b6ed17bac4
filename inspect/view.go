package inspect

import (
	"fmt"
	"sort"

	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/tui/report"
)

// View maps a reading onto the report console's view model. Remote text is
// passed through unchanged: the console sanitizes everything it renders.
func (r *Result) View() report.View {
	st, pr := r.State, r.Obs.PullRequest
	v := report.View{
		Repository: st.Repository, Number: st.PR.Number, Title: pr.Title, URL: st.PR.URL,
		State: st.PR.State, Draft: st.PR.IsDraft, HeadSHA: st.CurrentHeadSHA,
		BaseBranch: st.PR.BaseBranch, HeadBranch: st.PR.HeadBranch, ObservedAt: st.ObservedAt,
		Classification: r.Verdict.Classification, Action: r.Verdict.Action, Reason: r.Verdict.Reason, Message: r.Verdict.Message,
		Reviewing:    r.Classified.Live.Reviewing || r.Classified.Live.SecurityState == classify.SummaryRunning,
		SummaryState: summaryLine(r.Classified.Live),
		Gates:        report.Gates{Approvals: st.Gates.Approvals, BranchProtection: st.Gates.BranchProtection, Checks: st.Gates.Checks, Mergeability: st.Gates.Mergeability},
		Cost:         r.costLine(),
	}
	if st.RequestCommentID != nil {
		v.Request = &report.RequestRow{ID: *st.RequestCommentID, CreatedAt: deref(st.RequestCreatedAt), HeadSHA: deref(st.RequestHeadSHA), Deadline: deref(st.RequestDeadline)}
	}
	for _, resp := range st.Responses {
		v.Responses = append(v.Responses, report.ResponseRow{Source: resp.Source, ID: resp.ID, CreatedAt: resp.CreatedAt, Commit: deref(resp.CommitSHA), ZeroFindings: resp.ZeroFindingsSignal, Qualifies: true})
	}
	for _, resp := range r.Classified.Older {
		v.Responses = append(v.Responses, report.ResponseRow{Source: resp.Source, ID: resp.ID, CreatedAt: resp.CreatedAt, Commit: deref(resp.CommitSHA), ZeroFindings: resp.ZeroFindingsSignal})
	}
	for _, n := range r.Classified.Notices {
		v.Notices = append(v.Notices, fmt.Sprintf("%s (%s %s): %s", n.Kind, n.Source, n.ID, n.Text))
	}
	if len(r.Verdict.Errors) > 0 {
		v.Err = fmt.Sprintf("evaluator: %s", r.Verdict.Errors.Error())
	}
	v.Threads = r.threadRows()
	return v
}

func (r *Result) threadRows() []report.ThreadRow {
	kind := map[string]string{}
	for _, t := range r.Classified.Actionable {
		kind[t.ID] = "actionable"
	}
	for _, t := range r.Classified.Eligible {
		kind[t.ID] = "eligible"
	}
	rows := []report.ThreadRow{}
	for _, t := range r.Obs.Threads {
		row := report.ThreadRow{Path: t.Path, Line: line(t)}
		if len(t.Comments) > 0 {
			root := t.Comments[0]
			row.Author = root.Author.Login
			row.Priority, row.Title = classify.ParseFinding(root.Body)
			if row.Title == "" {
				row.Title = firstLine(root.Body)
			}
		}
		switch {
		case kind[t.ID] != "":
			row.Kind = kind[t.ID]
		case t.IsResolved:
			row.Kind = "resolved"
		default:
			row.Kind = "non-codex"
		}
		rows = append(rows, row)
	}
	order := map[string]int{"actionable": 0, "eligible": 1, "non-codex": 2, "resolved": 3}
	sort.SliceStable(rows, func(i, j int) bool { return order[rows[i].Kind] < order[rows[j].Kind] })
	return rows
}

func (r *Result) costLine() string {
	c := r.Cost
	s := fmt.Sprintf("%s (%d REST charged, %d not modified), %s", plural(c.Requests, "request"), c.RESTCharged, c.NotModified, plural(c.GraphQLPoints, "GraphQL point"))
	if c.GraphQLRemaining >= 0 {
		s += fmt.Sprintf(" · %d GraphQL left", c.GraphQLRemaining)
	}
	if c.RateRemaining >= 0 {
		s += fmt.Sprintf(" · %d REST left", c.RateRemaining)
	}
	return s
}

func line(t observe.Thread) int64 {
	for _, p := range []*int64{t.Line, t.OriginalLine, t.StartLine} {
		if p != nil {
			return *p
		}
	}
	return 0
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// summaryLine is the summary comment's rows for the head in one phrase: the
// code review's state, then the security review's when there is one (shown,
// never part of the verdict; PROTOCOL §5).
func summaryLine(l classify.Live) string {
	s := l.SummaryState
	if l.SecurityState != "" {
		if s != "" {
			s += " · "
		}
		s += "security " + l.SecurityState
	}
	return s
}
