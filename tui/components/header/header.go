// Package header renders the pull request's identity: repository, number
// and title; state, head commit and branches; and the URL.
package header

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// Height is the number of lines the header always takes, so the layout
// below it never shifts between refreshes.
const Height = 3

// branchCells bounds one branch name, so a long one cannot push the head
// commit and the observation time off the line.
const branchCells = 32

// Data is what the header shows. Every field is untrusted.
type Data struct {
	Repository string
	Number     int64
	Title      string
	URL        string
	State      string
	Draft      bool
	HeadSHA    string
	BaseBranch string
	HeadBranch string
	ObservedAt string
	Loading    bool // nothing observed yet: Repository and Number are what was asked for
	Simulated  bool // the data comes from the GitHub simulator, not github.com
}

// KeyMap is empty: the header takes no keys.
type KeyMap = common.NoKeys

// Model is the header component.
type Model struct {
	common.Common
	Keys KeyMap
	data Data
}

// New returns an empty header.
func New(st *theme.Styles) Model { return Model{Common: common.Common{Styles: st}} }

// SetData replaces what is shown.
func (m *Model) SetData(d Data) { m.data = d }

// View renders exactly Height lines, each at most Width cells.
func (m Model) View() string {
	if m.Width == 0 {
		return strings.Repeat("\n", Height-1)
	}
	d, st, g := m.data, m.Styles, m.Styles.Glyphs
	w := m.Width

	// GitHub names are short; a long one is hostile and must not hide the title.
	repo := sanitize.Line(d.Repository, max(w/2, 16))
	if repo == "" {
		repo = "(unknown repository)"
	}
	id := fmt.Sprintf("%s#%d", repo, d.Number)
	if d.Number == 0 && d.Loading {
		id = repo + " (the pull request of the current branch)"
	}
	title := st.Title.Render(common.Fit(id+"  "+sanitize.Line(d.Title, w), w))

	var parts []string
	if d.Simulated {
		parts = append(parts, "SIMULATOR (not github.com)")
	}
	if d.Loading {
		parts = append(parts, "loading…")
	}
	if s := sanitize.Line(strings.ToUpper(d.State), 16); s != "" {
		parts = append(parts, s)
	}
	if d.Draft {
		parts = append(parts, "DRAFT")
	}
	if sha := common.ShortSHA(d.HeadSHA); sha != "" {
		parts = append(parts, "head "+sha)
	}
	if d.BaseBranch != "" || d.HeadBranch != "" {
		parts = append(parts, sanitize.Line(d.BaseBranch, branchCells)+" "+g.Into+" "+sanitize.Line(d.HeadBranch, branchCells))
	}
	sep := " " + g.Sep + " "
	if o := sanitize.Line(d.ObservedAt, 32); o != "" {
		parts = append(parts, "observed "+o)
		// Where the line is too long, the time of day is what matters
		// (the simulator's label cut "observed 2026-12-0…" at 100 columns).
		if t, err := time.Parse(time.RFC3339, d.ObservedAt); err == nil && ansi.StringWidth(strings.Join(parts, sep)) > w {
			parts[len(parts)-1] = "observed " + t.UTC().Format("15:04:05Z")
		}
	}
	meta := st.Muted.Render(common.Fit(strings.Join(parts, sep), w))
	url := st.Muted.Render(sanitize.Line(d.URL, w))
	return title + "\n" + meta + "\n" + url
}
