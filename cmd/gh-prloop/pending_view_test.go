package main

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// `approve` and the watch console show a loop plan through one view: the
// approver on both kinds, the commit author on a fix round (the only one
// that commits), and how to add a path to its scope. (The watch console's
// approval screen once had no approver.)
func TestPendingViewIsOneForBothConsoles(t *testing.T) {
	rem := &wakeup.Pending{Kind: "remediation", PlanHash: strings.Repeat("a", 64), Checkpoint: &checkpoint.Checkpoint{
		Mode: policy.ModeApprovalGated, RemediationManifest: &schema.RemediationManifest{Paths: []string{"a.go"}}}}
	v := pendingView("KEY", rem, nil, "monalisa", "Mona <m@example.com>")
	if v.Approver != "monalisa" || v.Author != "Mona <m@example.com>" || !strings.Contains(v.Body, "gh-prloop approve KEY --add-path PATH") || !strings.Contains(v.Body, "a.go") {
		t.Errorf("remediation view: approver %q, author %q, body %q", v.Approver, v.Author, v.Body)
	}
	fin := &wakeup.Pending{Kind: "finalization", PlanHash: strings.Repeat("b", 64), Checkpoint: &checkpoint.Checkpoint{
		Mode: policy.ModeApprovalGated, FinalizationManifest: &schema.FinalizationManifest{}}}
	v = pendingView("KEY", fin, nil, "monalisa", "Mona <m@example.com>")
	if v.Approver != "monalisa" || v.Author != "" || v.PlanHash != fin.PlanHash {
		t.Errorf("finalization view: approver %q, author %q (a finalization makes no commit), hash %q", v.Approver, v.Author, v.PlanHash)
	}
}
