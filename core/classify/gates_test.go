package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

func bptr(b bool) *bool { return &b }

func TestApprovalsGate(t *testing.T) {
	cases := []struct {
		decision string
		required *bool
		want     string
	}{
		{"APPROVED", nil, "pass"},
		{"CHANGES_REQUESTED", nil, "fail"},
		{"REVIEW_REQUIRED", nil, "pending"},
		{"REVIEW_REQUIRED", bptr(true), "pending"},
		{"", nil, "pass"},
		{"", bptr(false), "pass"},
		{"", bptr(true), "unknown"},
		{"approved", nil, "unknown"},
		{"DISMISSED", nil, "unknown"},
	}
	for _, tc := range cases {
		obs := basePR(findingsHead)
		obs.PullRequest.ReviewDecision, obs.PullRequest.ReviewRequired = tc.decision, tc.required
		if got := ReadGates(obs).Approvals; got != tc.want {
			t.Errorf("decision %q required %v: %s, want %s", tc.decision, tc.required, got, tc.want)
		}
	}
}

func TestMergeabilityGate(t *testing.T) {
	for in, want := range map[string]string{"MERGEABLE": "pass", "CONFLICTING": "fail", "UNKNOWN": "unknown", "": "unknown", "mergeable": "unknown"} {
		obs := basePR(findingsHead)
		obs.PullRequest.Mergeable = in
		if got := ReadGates(obs).Mergeability; got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

func TestBranchProtectionGate(t *testing.T) {
	for in, want := range map[string]string{
		"CLEAN": "pass", "HAS_HOOKS": "pass",
		"BLOCKED": "fail", "BEHIND": "fail", "DIRTY": "fail",
		"UNSTABLE": "pending",
		"DRAFT":    "unknown", "UNKNOWN": "unknown", "": "unknown", "clean": "unknown",
	} {
		obs := basePR(findingsHead)
		obs.PullRequest.MergeStateStatus = in
		if got := ReadGates(obs).BranchProtection; got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

func TestCheckRunValues(t *testing.T) {
	conclusions := map[string]string{
		"success": "pass", "neutral": "pass", "skipped": "pass",
		"failure": "fail", "timed_out": "fail", "cancelled": "fail", "action_required": "fail",
		"startup_failure": "fail", "stale": "fail",
		"": "unknown", "exploded": "unknown",
		"SUCCESS": "pass", "TIMED_OUT": "fail", // GraphQL spelling
	}
	for c, want := range conclusions {
		obs := basePR(findingsHead)
		obs.CheckRuns = []observe.CheckRun{{Name: "ci", Status: "completed", Conclusion: c}}
		if got := ReadGates(obs).Checks; got != want {
			t.Errorf("completed/%q: %s, want %s", c, got, want)
		}
	}
	for _, s := range []string{"queued", "in_progress", "pending", "requested", "waiting", "IN_PROGRESS"} {
		obs := basePR(findingsHead)
		obs.CheckRuns = []observe.CheckRun{{Name: "ci", Status: s}}
		if got := ReadGates(obs).Checks; got != "pending" {
			t.Errorf("status %q: %s, want pending", s, got)
		}
	}
	obs := basePR(findingsHead)
	obs.CheckRuns = []observe.CheckRun{{Name: "ci", Status: "sleeping", Conclusion: "success"}}
	if got := ReadGates(obs).Checks; got != "unknown" {
		t.Errorf("unknown status: %s", got)
	}
}

func TestCommitStatusValues(t *testing.T) {
	for s, want := range map[string]string{
		"success": "pass", "failure": "fail", "error": "fail", "pending": "pending", "expected": "pending",
		"ERROR": "fail", "": "unknown", "weird": "unknown",
	} {
		obs := basePR(findingsHead)
		obs.Statuses = []observe.CommitStatus{{Context: "ci/legacy", State: s}}
		if got := ReadGates(obs).Checks; got != want {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}

func TestChecksCombine(t *testing.T) {
	ok := observe.CheckRun{Name: "a", Status: "completed", Conclusion: "success"}
	running := observe.CheckRun{Name: "b", Status: "in_progress"}
	bad := observe.CheckRun{Name: "c", Status: "completed", Conclusion: "failure"}
	odd := observe.CheckRun{Name: "d", Status: "completed", Conclusion: "mystery"}
	cases := []struct {
		name     string
		runs     []observe.CheckRun
		statuses []observe.CommitStatus
		read     bool
		want     string
	}{
		{"none at all", nil, nil, true, "pass"},
		{"not read", nil, nil, false, "unknown"},
		{"not read beats success", []observe.CheckRun{ok}, nil, false, "unknown"},
		{"all success", []observe.CheckRun{ok, ok}, []observe.CommitStatus{{State: "success"}}, true, "pass"},
		{"one incomplete", []observe.CheckRun{ok, running}, nil, true, "pending"},
		{"failure beats incomplete", []observe.CheckRun{running, bad}, nil, true, "fail"},
		{"failing status beats passing runs", []observe.CheckRun{ok}, []observe.CommitStatus{{State: "failure"}}, true, "fail"},
		{"unreadable beats incomplete", []observe.CheckRun{running, odd}, nil, true, "unknown"},
		{"failure beats unreadable", []observe.CheckRun{odd, bad}, nil, true, "fail"},
		{"pending status", []observe.CheckRun{ok}, []observe.CommitStatus{{State: "pending"}}, true, "pending"},
	}
	for _, tc := range cases {
		obs := basePR(findingsHead)
		obs.CheckRuns, obs.Statuses, obs.ChecksRead = tc.runs, tc.statuses, tc.read
		if got := ReadGates(obs).Checks; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestGatesOfNilObservationAreUnknown(t *testing.T) {
	g := ReadGates(nil)
	if g.Approvals != "unknown" || g.Checks != "unknown" || g.Mergeability != "unknown" || g.BranchProtection != "unknown" {
		t.Errorf("%+v", g)
	}
	out := Classify(Input{})
	if out.Gates != g || out.Responses == nil || out.Live.Reactions == nil {
		t.Errorf("nil observation: %+v", out)
	}
}
