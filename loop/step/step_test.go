package step

import (
	"github.com/prloop/gh-prloop/core/observe"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

func TestCheckOursNeedsParentTreeAndEveryTrailer(t *testing.T) {
	c := Commit{Tree: "t1", Parents: []string{"p1"}, Message: "subject\n\nPrloop-Run: r\nPrloop-Round: 2"}
	if err := c.CheckOurs("p1", "t1", "Prloop-Run: r", "Prloop-Round: 2"); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"parent":        c.CheckOurs("p2", "t1", "Prloop-Run: r"),
		"tree":          c.CheckOurs("p1", "t2", "Prloop-Run: r"),
		"round trailer": c.CheckOurs("p1", "t1", "Prloop-Round: 1"),
		"partial line":  c.CheckOurs("p1", "t1", "Prloop-Run: "),
		"two parents":   Commit{Tree: "t1", Parents: []string{"p1", "p2"}, Message: c.Message}.CheckOurs("p1", "t1"),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLineWriterSplitsLinesAndFlushesTheRest(t *testing.T) {
	var got []string
	w := &LineWriter{Emit: func(s string) { got = append(got, s) }}
	_, _ = w.Write([]byte("a\r\nb"))
	_, _ = w.Write([]byte("c\nd"))
	w.Flush()
	if strings.Join(got, "|") != "a|bc|d" {
		t.Fatalf("lines %q", got)
	}
}

func TestRiskRecordAndTransportBindings(t *testing.T) {
	safe := schema.Boundary{Isolation: "no-network-minimal-env-checkout-only"}
	if _, err := AcceptedRisks(safe, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := AcceptedRisks(safe, `{"version":1}`); err == nil {
		t.Fatal("a risk record was accepted under the safe isolation")
	}
	record := `{"missing_isolation_guarantees":["no network"],"version":1}`
	h := canon.Hash([]byte(record))
	risky := schema.Boundary{Isolation: policy.IsolationRisk, RiskAcceptanceSHA256: &h}
	got, err := AcceptedRisks(risky, record)
	if err != nil || len(got) != 1 || got[0] != "no network" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := AcceptedRisks(risky, strings.Replace(record, "no network", "nothing", 1)); err == nil {
		t.Fatal("a record that does not hash to the digest was accepted")
	}
	url := "https://example.test/o/r.git"
	uh, _ := canon.HashValue(map[string]any{"url": url})
	b := schema.Boundary{}
	b.Git.TransportURLSHA256 = uh
	if err := CheckTransport(b, url); err != nil {
		t.Fatal(err)
	}
	if CheckTransport(b, url+"x") == nil || CheckTransport(b, "") == nil {
		t.Fatal("another push URL was accepted")
	}
}

func TestOwnCommentsAreTheViewersCarryingTheMarker(t *testing.T) {
	const marker = "<!-- github-codex-pr-loop-request run=r round=0 sha=s -->"
	cs := []observe.IssueComment{
		{ID: 1, Author: observe.Actor{ID: 7}, Body: "@codex review\n" + marker},
		{ID: 2, Author: observe.Actor{ID: 8}, Body: "@codex review\n" + marker},
		{ID: 3, Author: observe.Actor{ID: 7}, Body: "@codex review"},
	}
	got := OwnComments(cs, 7, marker)
	if len(got) != 1 || got[0].ID != 1 {
		t.Fatalf("own comments %+v", got)
	}
}

func TestRequestReceiptNeedsTheApprovedBodyAndATime(t *testing.T) {
	c := observe.IssueComment{ID: 5, Body: "@codex review\nx", CreatedAt: "2026-12-01T04:00:00Z"}
	if r, why := RequestReceipt(c, c.Body); why != "" || r["comment_id"] != "5" || r["created_at"] != "2026-12-01T04:00:00Z" || r["body_sha256"] != SHA256Hex(c.Body) {
		t.Fatalf("receipt %v, %q", r, why)
	}
	if _, why := RequestReceipt(c, "@codex review\ny"); why == "" {
		t.Fatal("a different body was receipted")
	}
	c.CreatedAt = "yesterday"
	if _, why := RequestReceipt(c, c.Body); why == "" {
		t.Fatal("an unreadable time was receipted")
	}
}
