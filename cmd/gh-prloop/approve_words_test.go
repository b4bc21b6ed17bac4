package main

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// What an approval says comes next: an approval-gated fix round is sent to
// the watch console, where its diff is shown (with a fixer) or its edit is
// made (without one); everything else is the next wakeup's.
func TestApprovedWordsSayWhereTheDiffIsShown(t *testing.T) {
	const key = "k"
	cases := []struct {
		name string
		p    wakeup.Pending
		want string
	}{
		{"gated-fixer", wakeup.Pending{Kind: "remediation", PlanHash: "h", Checkpoint: &checkpoint.Checkpoint{Mode: policy.ModeApprovalGated, Fixer: []string{"fix"}}},
			"the next wakeup runs the fixer; `gh-prloop watch k` shows its diff before the commit (a headless wakeup commits it unseen)"},
		{"gated-by-hand", wakeup.Pending{Kind: "remediation", PlanHash: "h", Checkpoint: &checkpoint.Checkpoint{Mode: policy.ModeApprovalGated}},
			"edit the files by hand in `gh-prloop watch k` (a headless wakeup cannot)"},
		{"finalization", wakeup.Pending{Kind: "finalization", PlanHash: "h", Checkpoint: &checkpoint.Checkpoint{Mode: policy.ModeApprovalGated}},
			"the next wakeup executes it"},
		{"autonomous", wakeup.Pending{Kind: "remediation", PlanHash: "h", Checkpoint: &checkpoint.Checkpoint{Mode: policy.ModeAutonomous, Fixer: []string{"fix"}}},
			"the next wakeup executes it"},
	}
	for _, c := range cases {
		got := approvedWords(key, &c.p)
		if !strings.HasPrefix(got, "approved the "+c.p.Kind+" plan h; ") || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: %q, want it to end %q", c.name, got, c.want)
		}
	}
}
