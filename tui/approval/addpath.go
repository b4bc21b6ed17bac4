package approval

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// addPathMsg is AddPath's answer: the rebuilt plan, or why not.
type addPathMsg struct {
	path string
	view View
	err  error
}

// CheckAddPath is the console's own check of a path to add, before
// anything is written: a clean relative slash path inside the checkout,
// not in .git, not already in the scope. The caller's AddPath checks it
// again (the library function `approve --add-path` uses).
func CheckAddPath(p string, scope []string) error {
	switch {
	case p == "":
		return errors.New("type a path relative to the checkout")
	case strings.ContainsAny(p, "\\\x00") || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("%q: a path of the plan is a slash path without backslashes or control characters", p)
	case path.IsAbs(p):
		return fmt.Errorf("%q is absolute: give it relative to the checkout", p)
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q is not a clean path inside the checkout (try %q)", p, path.Clean(p))
	case p == ".git" || strings.HasPrefix(p, ".git/"):
		return fmt.Errorf("%q is inside .git", p)
	}
	for _, s := range scope {
		if s == p {
			return fmt.Errorf("%q is already in the scope", p)
		}
	}
	return nil
}

func (m *Model) openAddPath() tea.Cmd {
	if m.cfg.AddPath == nil {
		return nil
	}
	m.state = stateAddPath
	m.notice, m.info = "", ""
	m.pathIn.Reset()
	m.input.Blur()
	m.pathIn.Focus()
	return nil
}

// addPathKey edits the path; enter adds it, esc goes back to the plan
// (ctrl+c still cancels the console).
func (m *Model) addPathKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case k.Type == tea.KeyCtrlC:
		return m.finish(Result{Outcome: Cancelled})
	case k.Type == tea.KeyEsc:
		m.closeAddPath()
		return nil
	case key.Matches(k, m.keys.Submit):
		p := strings.TrimSpace(m.pathIn.Value())
		if err := CheckAddPath(p, m.cfg.View.Scope); err != nil {
			m.notice = "Not added: " + err.Error() + "."
			return nil
		}
		m.state, m.notice = stateAdding, ""
		m.pathIn.Blur()
		ctx, add := m.cfg.Context, m.cfg.AddPath
		return tea.Batch(m.spin.Tick, func() tea.Msg {
			v, err := add(ctx, p)
			return addPathMsg{path: p, view: v, err: err}
		})
	}
	before := m.pathIn.Value()
	m.pathIn.Update(k)
	if m.pathIn.Value() != before {
		m.notice = ""
	}
	return nil
}

func (m *Model) closeAddPath() {
	m.state = stateReview
	m.pathIn.Blur()
	m.applyFocus()
}

// onAddPath shows the rebuilt plan: new files, new hash, the typed text
// cleared, so that only the new hash can be approved.
func (m *Model) onAddPath(msg addPathMsg) tea.Cmd {
	if m.state != stateAdding {
		return nil
	}
	if msg.err != nil {
		m.state = stateAddPath
		m.pathIn.Focus()
		m.notice = "Not added: " + msg.err.Error() + "."
		return nil
	}
	m.load(msg.view)
	m.input.Reset()
	m.notice = ""
	m.info = fmt.Sprintf("Added %s: the plan was rebuilt with a new hash; type it to approve.", msg.path)
	m.focus = focusInput
	m.closeAddPath()
	m.SetSize(m.width, m.height)
	m.fillDiff(true)
	return m.nextDiff()
}
