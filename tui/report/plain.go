package report

import (
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/tui/components/banner"
	"github.com/prloop/gh-prloop/tui/components/gates"
	"github.com/prloop/gh-prloop/tui/components/threads"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Field budgets for plain output. There is no terminal width to fit, but a
// log line must not grow without bound either.
const (
	plainShort = 64   // ids, times, branch names, states
	plainLong  = 240  // titles, paths, URLs
	plainText  = 1000 // messages and notices
)

// Plain renders v as plain text for a pipe, a file or a log: no escape
// codes, no colour, no cursor movement, one fact per line, every remote
// string sanitized. It says the same things as the console, in the same
// order.
func Plain(v View) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	s := func(x string) string { return sanitize.Line(x, plainShort) }
	l := func(x string) string { return sanitize.Line(x, plainLong) }
	t := func(x string) string { return sanitize.Line(x, plainText) }

	line("%s#%d: %s", s(v.Repository), v.Number, l(v.Title))
	if v.Simulated {
		line("source: the GitHub simulator (not github.com)")
	}
	state := s(v.State)
	if v.Draft {
		state += " (draft)"
	}
	line("state: %s", state)
	if v.URL != "" {
		line("url: %s", l(v.URL))
	}
	line("head: %s (%s <- %s)", s(v.HeadSHA), s(v.BaseBranch), s(v.HeadBranch))
	if v.ObservedAt != "" {
		line("observed: %s", s(v.ObservedAt))
	}
	line("classification: %s", banner.Headline(bannerData(v, false)))
	if v.Action != "" || v.Reason != "" {
		line("action: %s (reason: %s)", s(v.Action), s(v.Reason))
	}
	if v.Message != "" {
		line("message: %s", t(v.Message))
	}
	if v.Reviewing {
		st := "reviewing"
		if v.SummaryState != "" {
			st += " (summary: " + s(v.SummaryState) + ")"
		}
		line("codex: %s", st)
	}
	var gs []string
	for _, nv := range gates.Named(gatesData(v)) {
		gs = append(gs, strings.ReplaceAll(nv[0], " ", "_")+"="+gates.Normalize(nv[1]))
	}
	line("gates: %s", strings.Join(gs, " "))
	if r := v.Request; r != nil {
		line("request: #%d at %s on head %s (deadline %s)", r.ID, s(r.CreatedAt), s(r.HeadSHA), s(r.Deadline))
	} else {
		line("request: none")
	}
	line("responses (%d):", len(v.Responses))
	for _, r := range v.Responses {
		line("  %s %s at %s commit %s zero-findings=%s current=%s",
			s(r.Source), s(r.ID), s(r.CreatedAt), s(r.Commit), yesNo(r.ZeroFindings), yesNo(r.Qualifies))
	}
	line("threads (%d):", len(v.Threads))
	for _, sec := range threads.Grouped(threadRows(v)) {
		line("  %s (%d):", strings.ToLower(sec.Heading), len(sec.Rows))
		for _, r := range sec.Rows {
			prio := s(r.Priority)
			if prio == "" {
				prio = "-"
			}
			entry := fmt.Sprintf("    %s %s %s", sanitize.Line(threads.Location(r), plainLong), prio, l(r.Title))
			if a := s(r.Author); a != "" {
				entry += " (@" + a + ")"
			}
			line("%s", entry)
		}
	}
	for _, n := range v.Notices {
		line("notice: %s", t(n))
	}
	if v.Cost != "" {
		line("cost: %s", t(v.Cost))
	}
	if v.Watch && v.NextRefresh != "" {
		line("refresh: %s", s(v.NextRefresh))
	}
	if v.Err != "" {
		line("error: %s", t(v.Err))
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
