package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

const labelWidth = 11

// summaryLines is the plan at a glance, fitted to width. Every value goes
// through sanitize; the labels are ours.
func (m *Model) summaryLines(width int) []string {
	v, st := m.cfg.View, m.st
	sep := " " + st.Glyphs.Sep + " "
	room := width - labelWidth
	row := func(label, value string) string {
		return st.Muted.Render(common.Pad(label, labelWidth)) + st.Text.Render(sanitize.Line(value, room))
	}
	pr := "new pull request"
	if v.ExistingPR != 0 {
		pr = fmt.Sprintf("reuse pull request #%d", v.ExistingPR)
	}
	lines := []string{
		row("repository", v.Repository+" on "+v.Host+" via remote "+v.RemoteName),
		row("base", v.BaseBranch+" @ "+v.BaseSHA),
		row("head", v.HeadBranch+" @ "+v.HeadSHA),
		row("mode", v.Mode+sep+pr+sep+"run "+v.RunID),
	}
	for i, l := range wrapFacts(v.Posture, sep, room) {
		label := ""
		if i == 0 {
			label = "boundary"
		}
		lines = append(lines, st.Muted.Render(common.Pad(label, labelWidth))+st.Text.Render(l))
	}
	for i, r := range v.Risks {
		label := ""
		if i == 0 {
			label = "RISK"
		}
		lines = append(lines, row(label, r))
	}
	if len(v.Commands) == 0 {
		lines = append(lines, row("validate", "no validation commands"))
	}
	for i, argv := range v.Commands {
		label := ""
		if i == 0 {
			label = "validate"
		}
		lines = append(lines, st.Muted.Render(common.Pad(label, labelWidth))+st.Text.Render(sanitize.Line(shellJoin(argv), room)))
	}
	// The PR title is bound only by its digest, and the approver is who is
	// typing; both are context, so they come last.
	if v.Title != "" {
		lines = append(lines, row("title", v.Title))
	}
	if v.Approver != "" {
		lines = append(lines, row("approver", "@"+v.Approver))
	}
	return lines
}

// wrapFacts joins facts with sep into lines of at most width cells,
// breaking only between facts (a fact wider than a line is cut).
func wrapFacts(facts []string, sep string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	cur := ""
	for _, f := range facts {
		f = sanitize.Line(f, width)
		switch {
		case cur == "":
			cur = f
		case ansi.StringWidth(cur+sep+f) <= width:
			cur += sep + f
		default:
			out = append(out, cur)
			cur = f
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// shellJoin shows an argv the way a shell would need it typed, so that an
// argument with a space is not read as two.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) {
			parts[i] = a
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}
