package watch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/threads"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// threadList is the thread table with a row cursor (lazygit's list): the
// rows in the report's group order, the cursor kept on screen.
type threadList struct {
	common.Common
	rows   []status.Thread // display order
	cursor int
	top    int // first visible row
}

func newThreadList(st *theme.Styles) threadList {
	return threadList{Common: common.Common{Styles: st}}
}

// setData replaces the rows, keeping the cursor on the same thread when it
// is still there so that a refresh does not move it.
func (l *threadList) setData(ts []status.Thread) {
	var keep string
	if c, ok := l.selected(); ok {
		keep = c.ID
	}
	l.rows = l.rows[:0]
	for _, g := range threads.Groups {
		for _, t := range ts {
			if t.Kind == g.Kind {
				l.rows = append(l.rows, t)
			}
		}
	}
	for _, t := range ts {
		if !knownKind(t.Kind) {
			l.rows = append(l.rows, t)
		}
	}
	l.cursor = min(l.cursor, max(len(l.rows)-1, 0))
	for i, t := range l.rows {
		if keep != "" && t.ID == keep {
			l.cursor = i
		}
	}
	l.clamp()
}

func knownKind(k string) bool {
	for _, g := range threads.Groups {
		if g.Kind == k {
			return true
		}
	}
	return false
}

func (l *threadList) selected() (status.Thread, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return status.Thread{}, false
	}
	return l.rows[l.cursor], true
}

func (l *threadList) move(d int) {
	if len(l.rows) == 0 {
		return
	}
	l.cursor = min(max(l.cursor+d, 0), len(l.rows)-1)
	l.clamp()
}

// body is the number of row lines under the title.
func (l *threadList) body() int { return max(l.Height-1, 0) }

func (l *threadList) clamp() {
	b := l.body()
	if b <= 0 {
		l.top = 0
		return
	}
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+b {
		l.top = l.cursor - b + 1
	}
	l.top = max(min(l.top, len(l.rows)-b), 0)
}

func (l *threadList) SetSize(w, h int) {
	l.Common.SetSize(w, h)
	l.clamp()
}

// want is the height that shows every row.
func (l *threadList) want() int { return 1 + max(len(l.rows), 1) }

const (
	wKind = 10
	wPrio = 3
)

func (l *threadList) View() string {
	if l.Width == 0 || l.Height == 0 {
		return ""
	}
	st, w := l.Styles, l.Width
	head := fmt.Sprintf("  Threads (%d)", len(l.rows))
	if b := l.body(); len(l.rows) > b && b > 0 {
		pos := fmt.Sprintf("%d of %d", l.cursor+1, len(l.rows))
		if gap := w - ansi.StringWidth(head) - len(pos); gap > 0 {
			head += strings.Repeat(" ", gap) + pos
		}
	}
	out := []string{st.Section.Render(common.Fit(head, w))}
	if len(l.rows) == 0 {
		out = append(out, st.Muted.Render(common.Fit("    no review threads", w)))
		return strings.Join(out[:min(len(out), l.Height)], "\n")
	}
	locW := 0
	for _, r := range l.rows {
		locW = max(locW, ansi.StringWidth(sanitize.Line(location(r), 40)))
	}
	locW = min(locW, max(w-4-wKind-wPrio-6-12, 8))
	titleW := max(w-4-wKind-locW-wPrio-6, 0)
	for i := l.top; i < len(l.rows) && i < l.top+l.body(); i++ {
		r := l.rows[i]
		mark := "  "
		if i == l.cursor {
			mark = st.Glyphs.Focus + " "
		}
		prio := sanitize.Line(r.Priority, wPrio)
		if prio == "" {
			prio = "-"
		}
		title := r.Title
		if r.Kind != "actionable" && r.Kind != "eligible" && r.Author != "" {
			title += " — @" + r.Author
		}
		line := "  " + mark +
			common.Pad(sanitize.Line(r.Kind, wKind), wKind) + "  " +
			common.Pad(sanitize.Line(location(r), locW), locW) + "  " +
			common.Pad(prio, wPrio) + "  " + sanitize.Line(title, titleW)
		line = common.Fit(line, w)
		if i == l.cursor {
			line = st.Selected.Render(line)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func location(t status.Thread) string {
	return threads.Location(threads.Row{Path: t.Path, Line: t.Line})
}
