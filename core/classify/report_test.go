package classify_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// These tests live outside the package: core/evaluate imports classify.

const (
	head    = "bb837df21e053ce5ad577e36550cb1126dc97055"
	zhead   = "b27d1d8861aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	baseTip = "fedcba9876543210fedcba9876543210fedcba98"
)

var (
	codex = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "Bot"}
	user  = observe.Actor{Login: "octocat", ID: 583231, Type: "User"}
)

func body(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func observation(h string) *observe.PR {
	return &observe.PR{
		Repository: "octo/widgets", ViewerID: 583231, ObservedAt: "2026-10-08T00:00:00Z",
		PullRequest: observe.PullRequest{
			Number: 42, URL: "https://github.com/octo/widgets/pull/42", State: "OPEN", IsDraft: true,
			BaseRefName: "main", BaseSHA: baseTip, HeadRefName: "feature", HeadSHA: h,
			IsCrossRepository: true, Mergeable: "CONFLICTING", MergeStateStatus: "DIRTY", ReviewDecision: "REVIEW_REQUIRED",
		},
		ChecksRead: true,
		CheckRuns:  []observe.CheckRun{{Name: "ci", Status: "in_progress"}},
	}
}

func request(at string) observe.IssueComment {
	return observe.IssueComment{ID: 5001, Author: user, Body: "@codex review", CreatedAt: at}
}

// roundTrip encodes the state canonically, parses it back strictly and decodes
// it with the state schema: what `gh-prloop evaluate --state` would read.
func roundTrip(t *testing.T, st schema.State) any {
	t.Helper()
	b, err := canon.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := canon.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	errs := problems.List{}
	schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		t.Fatalf("report state breaks the schema: %v\n%s", errs, b)
	}
	return raw
}

func TestReportStateFields(t *testing.T) {
	obs := observation(head)
	obs.IssueComments = []observe.IssueComment{request("2026-10-08T01:40:00+02:00")}
	st, out := classify.ReportState(obs)
	raw := roundTrip(t, st).(map[string]any)

	sum := sha256.Sum256([]byte("report-only:octo/widgets#42"))
	if want := hex.EncodeToString(sum[:])[:32]; st.RunID != want {
		t.Errorf("run_id %s, want %s", st.RunID, want)
	}
	if st.Mode != "report-only" || st.RemoteName != nil || st.OwnedAutomationID != nil || st.AutomationKey != nil {
		t.Errorf("report-only identity fields: %+v", st)
	}
	for _, k := range []string{"remote_name", "owned_automation_id", "automation_key", "claim", "execution_boundary",
		"finalization_approval", "finalization_manifest", "finalization_plan_hash", "finalized_at", "merge_gate_report",
		"remediation_approval", "remediation_manifest", "remediation_plan_hash"} {
		if v, ok := raw[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	for _, k := range []string{"automations", "completed_request_keys", "responses", "eligible_codex_threads", "actionable_codex_threads"} {
		if a, ok := raw[k].([]any); !ok || len(a) != 0 {
			t.Errorf("%s = %v, want []", k, raw[k])
		}
	}
	if st.RequestCommentID == nil || *st.RequestCommentID != 5001 || *st.RequestCreatedAt != "2026-10-07T23:40:00Z" ||
		*st.RequestDeadline != "2026-10-08T00:10:00Z" || *st.RequestHeadSHA != head {
		t.Errorf("request fields: %v %v %v %v", st.RequestCommentID, st.RequestCreatedAt, st.RequestDeadline, st.RequestHeadSHA)
	}
	wantPR := schema.PRState{BaseBranch: "main", HeadBranch: "feature", HeadSHA: head, IsDraft: true, Number: 42,
		SameRepository: false, State: "open", URL: "https://github.com/octo/widgets/pull/42"}
	if st.PR != wantPR || st.BaseBranch != "main" || st.HeadBranch != "feature" || st.BaseSHA != baseTip || st.CurrentHeadSHA != head {
		t.Errorf("pr/branches: %+v", st)
	}
	if st.FixRounds != 0 || st.ObservedAt != "2026-10-08T00:00:00Z" || st.AuthenticatedUserID != 583231 || st.Repository != "octo/widgets" {
		t.Errorf("misc: %+v", st)
	}
	wantGates := schema.Gates{Approvals: "pending", BranchProtection: "fail", Checks: "pending", Mergeability: "fail"}
	if st.Gates != wantGates || out.Gates != wantGates {
		t.Errorf("gates %+v", st.Gates)
	}
}

func TestReportStateIsDeterministic(t *testing.T) {
	obs := observation(head)
	obs.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z")}
	a, _ := classify.ReportState(obs)
	b, _ := classify.ReportState(obs)
	ha, _ := canon.HashValue(a)
	hb, _ := canon.HashValue(b)
	if ha != hb {
		t.Error("same observation, different report states")
	}
	obs.PullRequest.Number = 43
	c, _ := classify.ReportState(obs)
	if c.RunID == a.RunID {
		t.Error("another PR got the same report run id")
	}
}

func TestReportStateEvaluatesToReport(t *testing.T) {
	cases := []struct {
		name  string
		h     string
		setup func(*observe.PR)
		class string
	}{
		{"no request", head, func(*observe.PR) {}, evaluate.ClassNoRequest},
		{"awaiting response", head, func(o *observe.PR) {
			o.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z"),
				{ID: 6047467226, Author: codex, Body: body(t, "summary_running.md"), CreatedAt: "2026-10-07T23:40:20Z"}}
		}, evaluate.ClassAwaitingResponse},
		{"findings", head, func(o *observe.PR) {
			o.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z")}
			o.Reviews = []observe.Review{{ID: 3300000001, Author: codex, Body: body(t, "findings_review.md"), State: "COMMENTED",
				CommitID: head, SubmittedAt: "2026-10-07T23:49:31Z", CommentCount: 1}}
			o.ReviewComments = []observe.ReviewComment{{ID: 2400000001, Author: codex, Body: body(t, "finding_p1.md"),
				CreatedAt: "2026-10-07T23:49:31Z", CommitID: head, OriginalCommitID: head}}
			line := int64(17870)
			o.Threads = []observe.Thread{{ID: "PRRT_kwDOQvy8bs6qI-5e", Path: "mu/tools/executors/commit_executor.py", Line: &line, OriginalLine: &line, Side: "RIGHT",
				Comments: []observe.ThreadComment{{NodeID: "PRRC_kwDOQvy8bs77IAg6", ID: 2400000001, Author: codex, Body: body(t, "finding_p1.md"), CreatedAt: "2026-10-07T23:49:31Z"}}}}
		}, evaluate.ClassFindings},
		{"zero findings", zhead, func(o *observe.PR) {
			o.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z"),
				{ID: 9001, Author: codex, Body: body(t, "zero_findings.md"), CreatedAt: "2026-10-07T23:56:10Z"}}
		}, evaluate.ClassZeroFindings},
		{"zero findings for another commit", head, func(o *observe.PR) {
			o.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z"),
				{ID: 9001, Author: codex, Body: body(t, "zero_findings.md"), CreatedAt: "2026-10-07T23:56:10Z"}}
		}, evaluate.ClassAwaitingResponse},
		{"usage-limit notice", head, func(o *observe.PR) {
			o.IssueComments = []observe.IssueComment{request("2026-10-07T23:40:00Z"),
				{ID: 8100, Author: codex, Body: body(t, "usage_limit.md"), CreatedAt: "2026-10-07T23:40:19Z"}}
		}, evaluate.ClassAmbiguous},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obs := observation(tc.h)
			tc.setup(obs)
			st, _ := classify.ReportState(obs)
			res := evaluate.Evaluate(roundTrip(t, st))
			if !res.OK || res.Action != "report" || res.Classification != tc.class {
				t.Errorf("got ok=%v action=%s class=%s reason=%s errors=%v, want report/%s",
					res.OK, res.Action, res.Classification, res.Reason, res.Errors, tc.class)
			}
		})
	}
}
