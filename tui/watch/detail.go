package watch

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// MaxBody is how much of a thread body is rendered. A review comment is a
// few KiB; a larger one is hostile or broken, and markdown rendering is not
// free, so the rest is left to the browser (`o`) and the cut is said.
const MaxBody = 64 << 10

// detail is one thread in full: its identity and its body, sanitized first
// and then rendered as markdown for the terminal.
type detail struct {
	common.Common
	thread    status.Thread
	style     string // glamour standard style: notty (no colour), dark, light
	vp        viewport.Model
	scroll    keys.Scroll
	renderedW int
}

func newDetail(st *theme.Styles, t status.Thread, style string) *detail {
	d := &detail{Common: common.Common{Styles: st}, thread: t, style: style, vp: viewport.New(0, 0), scroll: keys.NewScroll(), renderedW: -1}
	return d
}

// head is the fixed part above the body.
func (d *detail) head() []string {
	st, w, t := d.Styles, d.Width, d.thread
	title := sanitize.Line(t.Title, w)
	if title == "" {
		title = "(untitled thread)"
	}
	var meta []string
	for _, s := range []string{sanitize.Line(t.Kind, 16), sanitize.Line(location(t), w/2), sanitize.Line(t.Priority, 4)} {
		if s != "" {
			meta = append(meta, s)
		}
	}
	if a := sanitize.Line(t.Author, 40); a != "" {
		meta = append(meta, "@"+a)
	}
	return []string{
		st.Title.Render(common.Fit(title, w)),
		st.Muted.Render(common.Fit(strings.Join(meta, " "+st.Glyphs.Sep+" "), w)),
		st.Muted.Render(sanitize.Line(t.URL, w)),
		st.Rule.Render(strings.Repeat(st.Glyphs.Rule, w)),
	}
}

func (d *detail) SetSize(w, h int) {
	d.Common.SetSize(w, h)
	d.vp.Width = d.Width
	d.vp.Height = max(d.Height-len(d.head()), 0)
	if d.Width != d.renderedW {
		d.render()
	}
}

// render sanitizes the body, then renders it. Sanitizing first means the
// markdown renderer never sees a control sequence: what it adds is its own
// styling, and nothing else. Every rendered line is wrapped hard to the
// width, so nothing of the body is cut off the side.
func (d *detail) render() {
	d.renderedW = d.Width
	body := d.thread.Body
	note := ""
	if len(body) > MaxBody {
		cut := MaxBody
		for cut > 0 && !isRuneStart(body[cut]) {
			cut--
		}
		note = fmt.Sprintf("(the body is %d bytes; the first %d are shown — press o to read it all on GitHub)", len(body), cut)
		body = body[:cut]
	}
	clean := codexBadges(sanitize.Text(body))
	if strings.TrimSpace(clean) == "" {
		clean = "_(no text)_"
	}
	out := clean
	if r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(d.style), glamour.WithWordWrap(max(d.Width-4, 20))); err == nil {
		if s, err := r.Render(clean); err == nil {
			out = s
		}
	}
	out = strings.Trim(out, "\n")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, strings.Split(ansi.Hardwrap(strings.TrimRight(l, " "), max(d.Width, 1), true), "\n")...)
	}
	if note != "" {
		lines = append(lines, "", d.Styles.Warn.Render(common.Fit(note, d.Width)))
	}
	d.vp.SetContent(strings.Join(lines, "\n"))
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Codex opens each finding with its priority as a badge image inside
// <sub> tags; a terminal cannot show the image, and the markdown renderer
// shows raw HTML as noise, so the badge becomes its text ("P1 —") and other
// <sub> tags go.
var (
	badge  = regexp.MustCompile(`(?:<sub>)*!\[(P[0-9]) Badge\]\([^)\s]*\)(?:</sub>)*`)
	subTag = regexp.MustCompile(`</?sub>`)
)

func codexBadges(s string) string {
	return subTag.ReplaceAllString(badge.ReplaceAllString(s, "$1 —"), "")
}

func (d *detail) scrollKey(k tea.KeyMsg) {
	switch {
	case key.Matches(k, d.scroll.Up):
		d.vp.ScrollUp(1)
	case key.Matches(k, d.scroll.Down):
		d.vp.ScrollDown(1)
	case key.Matches(k, d.scroll.PageUp):
		d.vp.PageUp()
	case key.Matches(k, d.scroll.PageDown):
		d.vp.PageDown()
	case key.Matches(k, d.scroll.Top):
		d.vp.GotoTop()
	case key.Matches(k, d.scroll.Bottom):
		d.vp.GotoBottom()
	}
}

func (d *detail) View() string {
	if d.Width == 0 || d.Height == 0 {
		return ""
	}
	parts := d.head()
	if d.vp.Height > 0 {
		parts = append(parts, d.vp.View())
	}
	return strings.Join(parts[:min(len(parts), d.Height)], "\n")
}
