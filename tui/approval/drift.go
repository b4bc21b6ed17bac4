package approval

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"sort"
	"strings"

	"github.com/prloop/gh-prloop/core/docdiff"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// DriftHeadline opens the drift view.
const DriftHeadline = "The plan changed between display and approval; nothing was recorded."

// fillDrift lists the changed fields: the path, then the old and the new
// value, each on its own line so that long values stay comparable.
func (m *Model) fillDrift() {
	st, w := m.st, max(m.width, MinWidth)
	r := m.result
	var lines []string
	if len(r.Files) > 0 {
		lines = append(lines, st.Title.Render(sanitize.Line(fmt.Sprintf("Changed files (%d)", len(r.Files)), w)))
		for _, f := range r.Files {
			p, _ := shownPath(f)
			for _, row := range wrapText(p, w-4) {
				lines = append(lines, "    "+st.Warn.Render(row))
			}
		}
		lines = append(lines, "")
	}
	for _, c := range r.Changes {
		lines = append(lines, st.Title.Render(sanitize.Line(pathLabel(c), w)))
		if c.Kind != docdiff.Added {
			lines = append(lines, valueRows(st.Fail.Bold(false), "- ", c.Old, w)...)
		}
		if c.Kind != docdiff.Removed {
			lines = append(lines, valueRows(st.Pass, "+ ", c.New, w)...)
		}
	}
	if r.Err != nil {
		lines = append(lines, st.Warn.Render(sanitize.Line("The documents could not be compared field by field: "+r.Err.Error(), w)))
	}
	if len(r.Changes) == 0 && r.Err == nil {
		lines = append(lines, st.Muted.Render(sanitize.Line("Only the hash differs.", w)))
	}
	m.drift.SetContent(fmt.Sprintf("Changed fields (%d)", len(r.Changes)), nil, lines)
}

func pathLabel(c docdiff.Change) string {
	p := c.Path
	if p == "" {
		p = "(the whole document)"
	}
	switch c.Kind {
	case docdiff.Added:
		return p + "  (added)"
	case docdiff.Removed:
		return p + "  (removed)"
	}
	return p
}

func (m *Model) driftView() string {
	st := m.st
	parts := m.driftHeadline()
	parts = append(parts, m.hashLines("approved", m.cfg.View.PlanHash)...)
	parts = append(parts, m.hashLines("rebuilt", m.result.RebuiltHash)...)
	parts = append(parts, m.drift.View())
	parts = append(parts, st.Muted.Render(sanitize.Line("Plan again to review the new plan.", m.width)))
	parts = append(parts, m.keyBar())
	return fitScreen(strings.Join(parts, "\n"), m.width, m.height)
}

// DriftSummary is the drift as plain text, for printing after the console
// has closed (the alternate screen takes the drift view with it).
func DriftSummary(approved string, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\napproved plan hash %s\nrebuilt plan hash  %s\n", DriftHeadline, sanitize.Line(approved, 64), sanitize.Line(r.RebuiltHash, 64))
	for _, f := range r.Files {
		p, _ := shownPath(f)
		fmt.Fprintf(&b, "  changed file: %s\n", p)
	}
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "  %s\n", sanitize.Line(pathLabel(c), 4096))
		if c.Kind != docdiff.Added {
			fmt.Fprintf(&b, "    - %s\n", sanitize.Line(c.Old, 4096))
		}
		if c.Kind != docdiff.Removed {
			fmt.Fprintf(&b, "    + %s\n", sanitize.Line(c.New, 4096))
		}
	}
	if r.Err != nil {
		fmt.Fprintf(&b, "  (the documents could not be compared field by field: %s)\n", sanitize.Line(r.Err.Error(), 4096))
	}
	return b.String()
}

// changedFiles compares the files the console showed with the rebuilt
// plan's blobs and names each that differs: content changed, no longer
// changed, or newly changed. nil when the re-check did not name blobs.
func changedFiles(shown []File, rebuilt map[string]string) []string {
	if rebuilt == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range shown {
		seen[f.Path] = true
		nb, ok := rebuilt[f.Path]
		switch {
		case !ok:
			out = append(out, f.Path+" (no longer changed)")
		case nb != f.NewBlob:
			out = append(out, f.Path+" (content changed)")
		}
	}
	var added []string
	for p := range rebuilt {
		if !seen[p] {
			added = append(added, p+" (newly changed)")
		}
	}
	sort.Strings(added)
	return append(out, added...)
}

// valueRows shows a changed value whole, wrapped under its sign.
func valueRows(style lipgloss.Style, sign, value string, width int) []string {
	var out []string
	for i, r := range wrapText(sanitize.Line(value, 1<<14), width-6) {
		lead := "      "
		if i == 0 {
			lead = "    " + sign
		}
		out = append(out, style.Render(lead+r))
	}
	return out
}

// driftHeadline is the headline wrapped to the width: it is the verdict.
func (m *Model) driftHeadline() []string {
	return wrapStyled(m.st.Error, m.st.Glyphs.Fail+" "+DriftHeadline, m.width)
}
