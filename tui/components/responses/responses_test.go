package responses

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestTable(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(100, 10)
	m.SetData(&Request{ID: 5, CreatedAt: "2025-01-01T00:00:00Z", HeadSHA: "abcdef0123", Deadline: "2025-01-01T00:30:00Z"},
		[]Row{{Source: "review", ID: "77", CreatedAt: "2025-01-01T00:10:00Z", Commit: "abcdef0123", Qualifies: true},
			{Source: "issue-comment", ID: "70", CreatedAt: "2024-12-31T00:00:00Z", Commit: "1234567890", ZeroFindings: true}})
	v := m.View()
	for _, want := range []string{
		"Responses (2)",
		"request #5 · 2025-01-01T00:00:00Z · deadline 2025-01-01T00:30:00Z · head abcdef0",
		"SOURCE          ID            CREATED               COMMIT   ZERO  ROUND",
		"review          77            2025-01-01T00:10:00Z  abcdef0  no    current",
		"issue-comment   70            2024-12-31T00:00:00Z  1234567  yes   older",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("missing %q in\n%s", want, v)
		}
	}
	if m.Want() != 1+2+2 {
		t.Errorf("Want() = %d", m.Want())
	}
	// The id column is the first to go when space is short.
	m.SetSize(70, 10)
	if v := m.View(); strings.Contains(v, " ID ") || !strings.Contains(v, "review          2025-01-01T00:10:00Z") {
		t.Errorf("narrow table:\n%s", v)
	}
}

func TestEmpty(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(80, 5)
	m.SetData(nil, nil)
	v := m.View()
	if !strings.Contains(v, "no review request found") || !strings.Contains(v, "no Codex responses yet") || strings.Contains(v, "SOURCE") {
		t.Errorf("empty table:\n%s", v)
	}
	if m.Want() != 3 {
		t.Errorf("Want() = %d", m.Want())
	}
}
