package watch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// diffConfirmKeys are the diff screen's bindings. There is no default:
// the diff is committed only on y or enter.
type diffConfirmKeys struct {
	keys.Global
	Commit key.Binding
	Refuse key.Binding
	Scroll keys.Scroll
}

func newDiffConfirmKeys() diffConfirmKeys {
	return diffConfirmKeys{
		Global: keys.NewGlobal(),
		Commit: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y", "commit")),
		Refuse: key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "refuse")),
		Scroll: keys.NewScroll(),
	}
}

// diffConfirm shows the change about to be committed — the unified diff of
// the approved paths, drawn by the approval console's renderer, so every
// byte is on screen and hidden characters are escaped — and asks to commit
// it (approval-gated mode, whoever made the edit).
type diffConfirm struct {
	common.Common
	keys   diffConfirmKeys
	loop   status.Loop
	diff   []byte
	pane   pane.Model
	hidden int
	counts string
}

func newDiffConfirm(st *theme.Styles, l status.Loop, diff []byte) *diffConfirm {
	d := &diffConfirm{Common: common.Common{Styles: st}, keys: newDiffConfirmKeys(), loop: l, diff: diff, pane: pane.New(st)}
	d.pane.Focus()
	return d
}

func (d *diffConfirm) head() []string {
	st, w := d.Styles, d.Width
	out := []string{
		st.Banner.Render(common.Fit(fmt.Sprintf("REVIEW THE DIFF %s fix round %d %s %s#%d", st.Glyphs.Sep, d.loop.Round+1, st.Glyphs.Sep,
			sanitize.Line(d.loop.Repository, w/2), d.loop.Number), w)),
		st.Text.Render(common.Fit("This is exactly what will be committed ("+d.counts+"). y or enter commits it;", w)),
		st.Muted.Render(common.Fit("n or esc refuses: nothing is committed and the edit stays in the worktree.", w)),
	}
	if d.hidden > 0 {
		out = append(out, st.Warn.Render(common.Fit(fmt.Sprintf("%s %d hidden or control characters, shown as ⟨U+…⟩", st.Glyphs.Notice, d.hidden), w)))
	}
	return append(out, "")
}

func (d *diffConfirm) SetSize(w, h int) {
	d.Common.SetSize(w, h)
	rows, hidden, added, removed := approval.UnifiedDiff(d.Styles, d.diff, max(w, 1))
	d.hidden, d.counts = hidden, fmt.Sprintf("+%d −%d lines", added, removed)
	d.pane.SetSize(w, max(h-len(d.head()), 0))
	d.pane.SetContent("Diff", nil, rows)
}

func (d *diffConfirm) View() string {
	return strings.Join(append(d.head(), strings.Split(d.pane.View(), "\n")...), "\n")
}

func (d *diffConfirm) key(k tea.KeyMsg) (error, bool) {
	switch {
	case key.Matches(k, d.keys.Commit):
		return nil, true
	case key.Matches(k, d.keys.Refuse):
		return ErrRefused, true
	}
	d.pane.Update(k)
	return nil, false
}

func (d *diffConfirm) shortHelp(width int) []key.Binding {
	return fitBar([]key.Binding{d.keys.Commit, d.keys.Refuse, d.keys.Scroll.Down}, []key.Binding{d.keys.Help, d.keys.Quit}, width)
}

func (d *diffConfirm) fullHelp() [][]key.Binding {
	return [][]key.Binding{{d.keys.Commit, d.keys.Refuse},
		{d.keys.Scroll.Up, d.keys.Scroll.Down}, {d.keys.Scroll.PageUp, d.keys.Scroll.PageDown}, {d.keys.Help, d.keys.Quit}}
}
