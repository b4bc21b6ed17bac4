package banner

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestHeadline(t *testing.T) {
	cases := []struct {
		d    Data
		want string
	}{
		{Data{Loading: true, Classification: "findings"}, "LOADING — fetching the pull request…"},
		{Data{Classification: "no-request"}, "NO REQUEST — no Codex review has been requested"},
		{Data{Classification: "awaiting-response"}, "AWAITING RESPONSE — waiting for Codex"},
		{Data{Classification: "awaiting-response", RequestDeadline: "2025-01-01T00:30:00Z"}, "AWAITING RESPONSE — Codex must answer by 2025-01-01T00:30:00Z"},
		{Data{Classification: "findings", Actionable: 1}, "FINDINGS — 1 actionable thread"},
		{Data{Classification: "findings", Actionable: 0}, "FINDINGS — 0 actionable threads"},
		{Data{Classification: "zero-findings"}, "ZERO FINDINGS — Codex found no major issues on this head"},
		{Data{Classification: "ambiguous"}, "AMBIGUOUS — a Codex response is neither findings nor zero findings"},
		{Data{}, "NOT CLASSIFIED"},
		{Data{Classification: "new-\x1b[31mthing"}, "NEW-THING"},
	}
	for _, c := range cases {
		if got := Headline(c.d); got != c.want {
			t.Errorf("Headline(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestNoticesAreCapped(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(80, 0)
	m.SetData(Data{Classification: "ambiguous", Notices: []string{"a", "b", "c", "d"}})
	v := m.View()
	if !strings.Contains(v, "! notice: a") || !strings.Contains(v, "! 3 more notices") || strings.Contains(v, "notice: b") {
		t.Errorf("notices:\n%s", v)
	}
	if m.Height() != 1+MaxNotices {
		t.Errorf("height %d", m.Height())
	}
	m.SetData(Data{Classification: "ambiguous", Notices: []string{"a", "b"}})
	if v := m.View(); !strings.Contains(v, "notice: b") || strings.Contains(v, "more notices") {
		t.Errorf("two notices fit:\n%s", v)
	}
}
