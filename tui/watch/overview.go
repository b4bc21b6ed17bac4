package watch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/gates"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// PhaseLabel is the phase in capitals: read without colour, it still says
// at a glance whether the loop needs a person.
func PhaseLabel(p status.Phase) string {
	switch p {
	case status.PhaseCodexRunning:
		return "CODEX RUNNING"
	case status.PhaseAwaitingApproval:
		return "APPROVAL NEEDED"
	case status.PhaseExecuting:
		return "EXECUTING"
	case status.PhaseHalted:
		return "HALTED"
	case status.PhaseFinalized:
		return "FINALIZED"
	}
	return "WAITING"
}

// overview is the fixed top of the screen: identity, loop status, the
// request, the next action and the gates. It is a pure function of the
// loop, the clock and the spinner frame, so a golden can pin all three.
type overview struct {
	st       *theme.Styles
	l        status.Loop
	frame    int
	countTo  func(t status.Loop) (wakeup, deadline string)
	approval bool // this console can approve in place
	width    int
	gates    gates.Model
}

func (o *overview) lines() []string {
	st, l, w, g := o.st, o.l, o.width, o.st.Glyphs
	sep := " " + g.Sep + " "
	phase := l.Phase()
	wakeup, deadline := o.countTo(l)

	repo := sanitize.Line(l.Repository, max(w/2, 16))
	if repo == "" {
		repo = "(unknown repository)"
	}
	out := []string{st.Title.Render(common.Fit(fmt.Sprintf("%s#%d  %s", repo, l.Number, sanitize.Line(l.Title, w)), w))}

	var meta []string
	if m := sanitize.Line(l.Mode, 20); m != "" {
		meta = append(meta, m)
	}
	if l.MaxRounds > 0 {
		meta = append(meta, fmt.Sprintf("round %d of %d", l.Round, l.MaxRounds))
	} else {
		meta = append(meta, fmt.Sprintf("round %d", l.Round))
	}
	sw := l.StatusWord()
	if r := sanitize.Line(l.Automation.Reason, 40); r != "" && l.Automation.Status == "PAUSED" {
		sw += " (" + r + ")"
	}
	meta = append(meta, sw)
	if wakeup != "" && phase != status.PhaseFinalized && phase != status.PhaseHalted {
		meta = append(meta, "next wakeup in "+wakeup)
	}
	out = append(out, st.Muted.Render(common.Fit(strings.Join(meta, sep), w)))

	if phase == status.PhaseFinalized {
		deadline = "" // nothing waits on it any more
	}
	out = append(out, common.Fit(o.request(deadline), w))

	style := st.Banner
	switch phase {
	case status.PhaseHalted:
		style = st.Error
	case status.PhaseAwaitingApproval:
		style = st.Warn
	case status.PhaseFinalized:
		style = st.Pass
	}
	head := PhaseLabel(phase)
	words := sanitize.Line(l.NextWords(), w)
	if phase == status.PhaseHalted {
		words = sanitize.Line(status.HaltWords(l.HaltReason()), w)
	} else {
		words = "next: " + words
	}
	if phase == status.PhaseWaiting || phase == status.PhaseExecuting {
		// alive, not stuck: the spinner turns once a second, with the clock
		head = g.Spinner[o.frame%len(g.Spinner)] + " " + head
	}
	out = append(out, style.Render(common.Fit(head+" — "+words, w)))

	var why []string
	if r := sanitize.Line(l.Next.Reason, 32); r != "" {
		why = append(why, "reason "+r)
	}
	if m := sanitize.Line(l.Next.Message, w); m != "" {
		why = append(why, m)
	}
	if len(why) > 0 {
		ws := st.Muted
		if phase == status.PhaseHalted {
			ws = st.Error
		}
		out = append(out, ws.Render(common.Fit(strings.Join(why, " — "), w)))
	}
	switch phase {
	case status.PhaseAwaitingApproval:
		h := sanitize.Line(l.Next.PlanHash, 80)
		how := "approve it with `gh-prloop approve " + sanitize.Line(l.Ref(), 200) + "`"
		if o.approval {
			how = "press a to review and approve it here"
		}
		out = append(out, st.Warn.Render(common.Fit("plan "+h, w)), st.Warn.Render(common.Fit(how, w)))
	case status.PhaseHalted:
		out = append(out, st.Muted.Render(common.Fit("the automation is paused; everything is kept for inspection", w)),
			// what a person can do about it
			st.Muted.Render(common.Fit(status.HaltNext(l.HaltReason(), sanitize.Line(l.Ref(), 200)), w)))
	case status.PhaseFinalized:
		if !l.FinalizedAt.IsZero() {
			out = append(out, st.Muted.Render(common.Fit("finalized at "+l.FinalizedAt.UTC().Format("2006-01-02 15:04:05Z"), w)))
		}
		for _, line := range strings.Split(strings.TrimSpace(l.MergeGate), "\n") {
			if s := sanitize.Line(line, w); s != "" {
				out = append(out, st.Muted.Render(common.Fit("  "+s, w)))
			}
		}
	}

	o.gates.SetSize(w, 0)
	o.gates.SetData(gateData(l.Gates))
	out = append(out, strings.Split(o.gates.View(), "\n")...)
	var waits []string
	for _, gt := range l.Gates {
		if gates.Normalize(gt.State) != "pass" && gt.WaitingOn != "" {
			waits = append(waits, sanitize.Line(gt.Name, 20)+": "+sanitize.Line(gt.WaitingOn, 40))
		}
	}
	if len(waits) > 0 {
		out = append(out, st.Muted.Render(common.Fit("       waits on "+strings.Join(waits, sep), w)))
	}
	return out
}

func (o *overview) request(deadline string) string {
	st, l, g := o.st, o.l, o.st.Glyphs
	sep := " " + g.Sep + " "
	r := l.Request
	if r == nil {
		return st.Muted.Render("no review request yet")
	}
	parts := []string{fmt.Sprintf("request %d", r.CommentID)}
	if sha := common.ShortSHA(r.HeadSHA); sha != "" {
		parts = append(parts, "head "+sha)
	}
	if deadline != "" {
		parts = append(parts, "deadline in "+deadline)
	}
	s := st.Text.Render(strings.Join(parts, sep))
	var codex string
	var cs lipgloss.Style = st.Muted
	switch r.Codex {
	case status.CodexRunning:
		frames := g.Spinner
		codex, cs = frames[o.frame%len(frames)]+" 👀 Codex is reviewing", st.Pending
	case status.CodexSummary:
		codex = "summary: " + sanitize.Line(r.Summary, 40)
	case status.CodexThumbsUp:
		codex, cs = "👍 Codex found no major issues", st.Pass
	case status.CodexAnswered:
		codex = "Codex answered"
	case status.CodexNotice:
		codex, cs = g.Notice+" notice: "+sanitize.Line(r.Notice, o.width), st.Warn
	default:
		codex = "Codex has not picked it up yet"
	}
	return s + sep + cs.Render(codex)
}

func gateData(gs []status.Gate) gates.Data {
	var d gates.Data
	for _, g := range gs {
		switch g.Name {
		case "approvals":
			d.Approvals = g.State
		case "branch protection", "branch-protection":
			d.BranchProtection = g.State
		case "checks":
			d.Checks = g.State
		case "mergeability":
			d.Mergeability = g.State
		}
	}
	return d
}
