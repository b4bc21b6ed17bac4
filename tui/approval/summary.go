package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

const labelWidth = 11

// summaryLines is the plan at a glance, in width cells. Every value goes
// through sanitize and is wrapped, never cut: all of it is approved.
func (m *Model) summaryLines(width int) []string {
	v, st := m.cfg.View, m.st
	sep := " " + st.Glyphs.Sep + " "
	room := width - labelWidth
	var lines []string
	add := func(label, value string) {
		for i, part := range wrapText(value, room) {
			if i > 0 {
				label = ""
			}
			lines = append(lines, st.Muted.Render(common.Pad(label, labelWidth))+st.Text.Render(part))
		}
	}
	row := func(label, value string) { add(label, sanitize.Line(value, 1<<12)) }
	pr := "new PR"
	if v.ExistingPR != 0 {
		pr = fmt.Sprintf("reuse PR #%d", v.ExistingPR)
	}
	if !m.repoInTitle(width) {
		row("repository", m.repoLine())
	}
	row("base", v.BaseBranch+" @ "+v.BaseSHA)
	row("head", v.HeadBranch+" @ "+v.HeadSHA)
	row("mode", v.Mode+sep+pr+sep+"run "+v.RunID)
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
		// A risk the human accepts by approving stands out in the warning
		// colour, wrapped whole like every other approved value.
		for j, part := range wrapText(sanitize.Line(r, 1<<12), room) {
			if j > 0 {
				label = ""
			}
			lines = append(lines, st.Warn.Render(common.Pad(label, labelWidth))+st.Warn.Render(part))
		}
	}
	if len(v.Commands) == 0 {
		row("validate", "no validation commands")
	}
	for i, argv := range v.Commands {
		label := ""
		if i == 0 {
			label = "validate"
		}
		row(label, shellJoin(argv))
	}
	// The PR title and body are bound by their digests; the approver is who
	// is typing.
	if v.Title != "" {
		row("title", v.Title)
	}
	if v.Body != "" {
		label := "body"
		for _, para := range strings.Split(strings.TrimRight(sanitize.Text(v.Body), "\n"), "\n") {
			add(label, para)
			label = ""
		}
	}
	// The commit author shares the approver's row: at 80x24 the summary
	// has no spare row (everything approved must stay on screen).
	switch {
	case v.Author != "" && v.Approver != "":
		row("author", v.Author+sep+"approver @"+v.Approver)
	case v.Author != "":
		row("author", v.Author)
	case v.Approver != "":
		row("approver", "@"+v.Approver)
	}
	return lines
}

// wrapFacts joins facts with sep into lines of at most width cells,
// breaking between facts (a fact wider than a line is wrapped).
func wrapFacts(facts []string, sep string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	cur := ""
	for _, f := range facts {
		f = sanitize.Line(f, 1<<12)
		if ansi.StringWidth(f) > width {
			// A fact wider than a line is wrapped on lines of its own,
			// never cut.
			if cur != "" {
				out = append(out, cur)
			}
			parts := wrapText(f, width)
			out = append(out, parts[:len(parts)-1]...)
			cur = parts[len(parts)-1]
			continue
		}
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

// repoLine says where the plan writes.
func (m *Model) repoLine() string {
	v := m.cfg.View
	return v.Repository + " on " + v.Host + " via remote " + v.RemoteName
}

// repoInTitle reports whether the summary's title holds the whole
// repository line (with room left for the scroll position), which saves
// the summary a row.
func (m *Model) repoInTitle(width int) bool {
	return ansi.StringWidth("  Plan for "+sanitize.Line(m.repoLine(), 1<<12)) <= width-12
}
