package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/theme"
)

// fileList is the list of changed files with a selection; the diff pane
// shows the selected file. (components/pane scrolls but has no selection.)
type fileList struct {
	common.Common
	keys    keys.Scroll
	files   []File
	diffs   []*fileDiff // shared with the model, filled in as computed
	unbound []string
	sel     int
	top     int
	focused bool
}

func newFileList(st *theme.Styles, files []File, diffs []*fileDiff, unbound []string) fileList {
	l := fileList{Common: common.Common{Styles: st}, keys: keys.NewScroll(), files: files, diffs: diffs, unbound: unbound}
	l.keys.SetEnabled(false)
	return l
}

func (l *fileList) Focus() { l.focused = true; l.keys.SetEnabled(true) }
func (l *fileList) Blur()  { l.focused = false; l.keys.SetEnabled(false) }

func (l *fileList) rows() int { return max(l.Height-1, 0) }

// Update moves the selection and reports whether it changed.
func (l *fileList) Update(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyMsg)
	if !ok || len(l.files) == 0 {
		return false
	}
	old := l.sel
	page := max(l.rows(), 1)
	switch {
	case key.Matches(k, l.keys.Up):
		l.sel--
	case key.Matches(k, l.keys.Down):
		l.sel++
	case key.Matches(k, l.keys.PageUp):
		l.sel -= page
	case key.Matches(k, l.keys.PageDown):
		l.sel += page
	case key.Matches(k, l.keys.Top):
		l.sel = 0
	case key.Matches(k, l.keys.Bottom):
		l.sel = len(l.files) - 1
	}
	l.sel = min(max(l.sel, 0), len(l.files)-1)
	l.scrollToSelection()
	return l.sel != old
}

func (l *fileList) SetSize(w, h int) {
	l.Common.SetSize(w, h)
	l.scrollToSelection()
}

func (l *fileList) scrollToSelection() {
	rows := l.rows()
	if rows == 0 {
		return
	}
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+rows {
		l.top = l.sel - rows + 1
	}
	l.top = min(l.top, max(len(l.files)-rows, 0))
}

func statusLetter(s FileStatus) string {
	switch s {
	case Added:
		return "A"
	case Deleted:
		return "D"
	}
	return "M"
}

func counts(d *fileDiff) string {
	if d == nil {
		return "…"
	}
	if d.binary {
		return "bin"
	}
	return fmt.Sprintf("+%d -%d", d.added, d.removed)
}

// View draws exactly Height lines of Width cells.
func (l fileList) View() string {
	if l.Width == 0 || l.Height == 0 {
		return ""
	}
	st := l.Styles
	added, removed, done := 0, 0, 0
	for _, d := range l.diffs {
		if d != nil {
			added += d.added
			removed += d.removed
			done++
		}
	}
	marker, style := " ", st.Section
	if l.focused {
		marker, style = st.Glyphs.Focus, st.Focused
	}
	title := fmt.Sprintf("%s Files (%d)  +%d -%d", marker, len(l.files), added, removed)
	if done < len(l.diffs) {
		title += " …"
	}
	out := []string{style.Render(common.Pad(common.Fit(title, l.Width), l.Width))}
	for i := l.top; i < len(l.files) && len(out) < l.Height; i++ {
		c := counts(l.diffs[i])
		mark := " "
		if i == l.sel {
			mark = st.Glyphs.Focus
		}
		status := statusLetter(l.files[i].Status)
		if l.unbound[i] != "" {
			status = st.Glyphs.Fail // shown content is not the plan's
		}
		lead := mark + " " + status + " "
		room := max(l.Width-ansi.StringWidth(lead)-ansi.StringWidth(c)-1, 0)
		// The full path is in the diff pane's title (or wrapped above the
		// diff); here a long one keeps its end, which names the file.
		path, hidden := shownPath(l.files[i].Path)
		if w := ansi.StringWidth(path); w > room && room > 1 {
			path = ansi.TruncateLeft(path, w-room+1, "…")
		}
		name := common.Pad(path, room)
		row := common.Fit(lead+name+" "+c, l.Width)
		switch {
		case i == l.sel:
			row = st.Selected.Render(row)
		case hidden || l.unbound[i] != "":
			row = st.Warn.Render(row)
		}
		out = append(out, row)
	}
	if len(l.files) == 0 {
		out = append(out, st.Muted.Render(common.Fit("  no changed files", l.Width)))
	}
	for len(out) < l.Height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
