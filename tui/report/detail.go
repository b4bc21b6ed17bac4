package report

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/components/common"
	"github.com/prloop/gh-prloop/tui/components/pane"
	"github.com/prloop/gh-prloop/tui/components/responses"
	"github.com/prloop/gh-prloop/tui/components/threads"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/prloop/gh-prloop/tui/theme"
)

// item is what the detail view shows: every field of one row, in full, so
// that nothing a list cut short is unreadable. Fields are untrusted and are
// sanitized when the lines are built.
type item struct {
	title  string
	fields [][2]string // label, value (one line each)
	body   string      // free text, wrapped; may have line breaks
	url    string
}

func threadItem(r threads.Row) item {
	it := item{title: "Thread " + threads.Location(r), url: r.URL, body: r.Body}
	line := "(the file)"
	if r.Line > 0 {
		line = fmt.Sprint(r.Line)
	}
	it.fields = [][2]string{
		{"group", r.Kind}, {"path", r.Path}, {"line", line}, {"priority", r.Priority},
		{"author", r.Author}, {"title", r.Title}, {"url", r.URL},
	}
	return it
}

func responseItem(r responses.Row, req *responses.Request) item {
	zero, round := "no", "older"
	if r.ZeroFindings {
		zero = "yes"
	}
	if r.Qualifies {
		round = "current"
	}
	it := item{title: "Response " + r.ID, url: r.URL}
	it.fields = [][2]string{
		{"source", r.Source}, {"id", r.ID}, {"created", r.CreatedAt}, {"commit", r.Commit},
		{"zero findings", zero}, {"round", round}, {"url", r.URL},
	}
	if req != nil {
		it.fields = append(it.fields,
			[2]string{"request", fmt.Sprintf("#%d", req.ID)}, [2]string{"requested", req.CreatedAt},
			[2]string{"deadline", req.Deadline}, [2]string{"request head", req.HeadSHA})
	}
	return it
}

// prItem is the pull request itself: every field the header, the banner,
// the gates and the status line may have cut, in full.
func prItem(v View) item {
	it := item{title: fmt.Sprintf("Pull request %s#%d", v.Repository, v.Number), url: v.URL}
	draft := "no"
	if v.Draft {
		draft = "yes"
	}
	it.fields = [][2]string{
		{"title", v.Title}, {"url", v.URL}, {"state", v.State}, {"draft", draft},
		{"head commit", v.HeadSHA}, {"base branch", v.BaseBranch}, {"head branch", v.HeadBranch},
		{"observed", v.ObservedAt}, {"classification", v.Classification}, {"action", v.Action},
		{"reason", v.Reason}, {"message", v.Message},
		{"approvals", v.Gates.Approvals}, {"protection", v.Gates.BranchProtection},
		{"checks", v.Gates.Checks}, {"mergeability", v.Gates.Mergeability},
	}
	if r := v.Request; r != nil {
		it.fields = append(it.fields, [2]string{"request", fmt.Sprintf("#%d", r.ID)}, [2]string{"requested", r.CreatedAt},
			[2]string{"deadline", r.Deadline}, [2]string{"request head", r.HeadSHA})
	}
	for _, n := range v.Notices {
		it.fields = append(it.fields, [2]string{"notice", n})
	}
	if v.Err != "" {
		it.fields = append(it.fields, [2]string{"error", v.Err})
	}
	it.fields = append(it.fields, [2]string{"cost", v.Cost})
	return it
}

const labelCells = 15

// lines renders the item for width cells: each field on its own line(s),
// wrapped under its label, then the body, wrapped.
func (it item) lines(st *theme.Styles, width int) []string {
	w := max(width-2, 8)
	var out []string
	for _, f := range it.fields {
		v := sanitize.Text(f[1])
		if v == "" {
			v = "-"
		}
		v = strings.ReplaceAll(v, "\n", " ")
		wrapped := strings.Split(ansi.Wrap(v, max(w-labelCells, 8), ""), "\n")
		if f[0] == "url" { // cut anywhere, not at a hyphen: it is one word
			wrapped = strings.Split(ansi.Hardwrap(v, max(w-labelCells, 8), false), "\n")
		}
		for i, l := range wrapped {
			label := ""
			if i == 0 {
				label = f[0]
			}
			out = append(out, "  "+st.Muted.Render(common.Pad(label, labelCells))+l)
		}
	}
	if b := sanitize.Text(it.body); strings.TrimSpace(b) != "" {
		out = append(out, "")
		for _, l := range strings.Split(b, "\n") {
			for _, wl := range strings.Split(ansi.Wrap(l, w, ""), "\n") {
				out = append(out, "  "+wl)
			}
		}
	}
	for i, l := range out {
		out[i] = common.Fit(strings.ReplaceAll(l, "\n", ""), width)
	}
	return out
}

// detail is the open detail view: a scrollable pane.
type detail struct {
	it   item
	pr   bool // the pull request itself, not a row
	pane pane.Model
}

func newDetail(st *theme.Styles, it item) *detail {
	d := &detail{it: it, pane: pane.New(st)}
	d.pane.Focus()
	return d
}

func (d *detail) setSize(width, height int) {
	d.pane.SetSize(width, height)
	d.pane.SetContent(sanitize.Line(d.it.title, max(width-4, 1)), nil, d.it.lines(d.pane.Styles, width))
}
