package report

import (
	"github.com/prloop/gh-prloop/tui/components/banner"
	"github.com/prloop/gh-prloop/tui/components/gates"
	"github.com/prloop/gh-prloop/tui/components/header"
	"github.com/prloop/gh-prloop/tui/components/responses"
	"github.com/prloop/gh-prloop/tui/components/threads"
)

// The components know nothing of View; these functions are the only place
// where the view model meets them.

func headerData(v View) header.Data {
	return header.Data{
		Repository: v.Repository, Number: v.Number, Title: v.Title, URL: v.URL,
		State: v.State, Draft: v.Draft, HeadSHA: v.HeadSHA,
		BaseBranch: v.BaseBranch, HeadBranch: v.HeadBranch, ObservedAt: v.ObservedAt,
	}
}

func bannerData(v View, loading bool) banner.Data {
	d := banner.Data{
		Loading:        loading,
		Classification: v.Classification,
		Actionable:     v.Actionable(),
		Reviewing:      v.Reviewing,
		SummaryState:   v.SummaryState,
		Action:         v.Action,
		Reason:         v.Reason,
		Message:        v.Message,
		Notices:        v.Notices,
	}
	if v.Request != nil {
		d.RequestDeadline = v.Request.Deadline
	}
	return d
}

func gatesData(v View) gates.Data {
	return gates.Data{
		Approvals: v.Gates.Approvals, BranchProtection: v.Gates.BranchProtection,
		Checks: v.Gates.Checks, Mergeability: v.Gates.Mergeability,
	}
}

func requestData(v View) *responses.Request {
	if v.Request == nil {
		return nil
	}
	r := *v.Request
	return &responses.Request{ID: r.ID, CreatedAt: r.CreatedAt, HeadSHA: r.HeadSHA, Deadline: r.Deadline}
}

func responseRows(v View) []responses.Row {
	out := make([]responses.Row, len(v.Responses))
	for i, r := range v.Responses {
		out[i] = responses.Row{Source: r.Source, ID: r.ID, CreatedAt: r.CreatedAt, Commit: r.Commit, ZeroFindings: r.ZeroFindings, Qualifies: r.Qualifies, URL: r.URL}
	}
	return out
}

func threadRows(v View) []threads.Row {
	out := make([]threads.Row, len(v.Threads))
	for i, t := range v.Threads {
		out[i] = threads.Row{Kind: t.Kind, Path: t.Path, Line: t.Line, Priority: t.Priority, Title: t.Title, Author: t.Author, Body: t.Body, URL: t.URL}
	}
	return out
}
