package watch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// prompt is a screen that answers a question of the wakeup in flight.
// The console draws its footer under it; q and ctrl+c stay the root's.
type prompt interface {
	SetSize(width, height int)
	View() string
	// key handles one key: done reports that the question is answered
	// with answer (nil is yes).
	key(k tea.KeyMsg) (answer error, done bool)
	shortHelp(width int) []key.Binding
	fullHelp() [][]key.Binding
}

// handEditKeys are the hand-edit screen's bindings.
type handEditKeys struct {
	keys.Global
	Done   key.Binding
	Abort  key.Binding
	Scroll keys.Scroll
}

func newHandEditKeys() handEditKeys {
	return handEditKeys{
		Global: keys.NewGlobal(),
		Done:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done editing")),
		Abort:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "abandon the round")),
		Scroll: keys.NewScroll(),
	}
}

// handEdit tells the human which files to change — each path with the
// threads that point at it (path:line, priority, title) — and waits for
// enter. Everything from GitHub is sanitized; a path is escaped, since it
// is what the round may change.
type handEdit struct {
	common.Common
	keys  handEditKeys
	loop  status.Loop
	paths []string
	list  pane.Model
}

func newHandEdit(st *theme.Styles, l status.Loop, paths []string) *handEdit {
	h := &handEdit{Common: common.Common{Styles: st}, keys: newHandEditKeys(), loop: l, paths: paths, list: pane.New(st)}
	h.list.Focus()
	return h
}

func (h *handEdit) head() []string {
	st, w := h.Styles, h.Width
	return []string{
		st.Banner.Render(common.Fit(fmt.Sprintf("EDIT BY HAND %s fix round %d %s %s#%d", st.Glyphs.Sep, h.loop.Round+1, st.Glyphs.Sep,
			sanitize.Line(h.loop.Repository, w/2), h.loop.Number), w)),
		st.Text.Render(common.Fit("Edit these files in your editor, then press enter.", w)),
		st.Muted.Render(common.Fit("Only these paths may change: any other change aborts the round.", w)),
		st.Muted.Render(common.Fit("esc abandons the round, committing nothing; q leaves it waiting.", w)),
		"",
	}
}

// rows are the files, each followed by its threads.
func (h *handEdit) rows() []string {
	st, w := h.Styles, h.Width
	var out []string
	for _, p := range h.paths {
		shown, _ := sanitize.Escape(p, sanitize.EscapeOptions{})
		out = append(out, st.Text.Render(common.Fit("  "+shown, w)))
		n := 0
		for _, t := range h.loop.Threads {
			if t.Kind != "actionable" || t.Path != p {
				continue
			}
			n++
			line := fmt.Sprintf("      :%d", t.Line)
			if pr := sanitize.Line(t.Priority, 4); pr != "" {
				line += "  " + pr
			}
			title := sanitize.Line(t.Title, w)
			if title == "" {
				title = "(untitled finding)"
			}
			out = append(out, st.Muted.Render(common.Fit(line+"  "+title, w)))
		}
		if n == 0 {
			out = append(out, st.Muted.Render(common.Fit("      no thread points here: the path was added to the scope", w)))
		}
	}
	return out
}

func (h *handEdit) SetSize(w, ht int) {
	h.Common.SetSize(w, ht)
	h.list.SetSize(w, max(ht-len(h.head()), 0))
	h.list.SetContent(fmt.Sprintf("Files to change (%d)", len(h.paths)), nil, h.rows())
}

func (h *handEdit) View() string {
	return strings.Join(append(h.head(), strings.Split(h.list.View(), "\n")...), "\n")
}

func (h *handEdit) key(k tea.KeyMsg) (error, bool) {
	switch {
	case key.Matches(k, h.keys.Done):
		return nil, true
	case key.Matches(k, h.keys.Abort):
		return ErrAborted, true
	}
	h.list.Update(k)
	return nil, false
}

func (h *handEdit) shortHelp(width int) []key.Binding {
	return fitBar([]key.Binding{h.keys.Done, h.keys.Abort, h.keys.Scroll.Down}, []key.Binding{h.keys.Help, h.keys.Quit}, width)
}

func (h *handEdit) fullHelp() [][]key.Binding {
	return [][]key.Binding{{h.keys.Done, h.keys.Abort}, {h.keys.Scroll.Up, h.keys.Scroll.Down}, {h.keys.Help, h.keys.Quit}}
}
