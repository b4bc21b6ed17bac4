package evaluate

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
)

// The state's cross-field schema rules: what exact decoding cannot see
// because it needs two fields at once. All of them are document errors
// (halt/schema), not observations of drift.

var reRequestKey = regexp.MustCompile(`^[1-9][0-9]*:[0-9a-f]{40}$`)

func checkState(s schema.State, raw map[string]any, errs *problems.List) {
	checkModeFields(s, errs)
	checkIdentity(s, errs)
	checkRequest(s, errs)
	checkCompletedKeys(s, errs)
	checkThreadLists(s, errs)
	checkResponses(s, errs)
	checkPlanFields(s, raw, errs)
	checkClaim(s, errs)
	checkFinalized(s, errs)
}

// checkModeFields: the write modes need their checkpoint identities; report-only
// never reads a checkout, the registry or a plan, so everything of that kind is null.
func checkModeFields(s schema.State, errs *problems.List) {
	if s.Mode != policy.ModeReportOnly {
		for _, f := range []struct {
			key string
			set bool
		}{
			{"automation_key", s.AutomationKey != nil},
			{"owned_automation_id", s.OwnedAutomationID != nil},
			{"remote_name", s.RemoteName != nil},
			{"request_comment_id", s.RequestCommentID != nil},
			{"request_created_at", s.RequestCreatedAt != nil},
			{"request_deadline", s.RequestDeadline != nil},
			{"request_head_sha", s.RequestHeadSHA != nil},
		} {
			if !f.set {
				errs.Add("/"+f.key, problems.NullNotAllowed, "%q must not be null in %s mode", f.key, s.Mode)
			}
		}
		return
	}
	for _, f := range []struct {
		key string
		set bool
	}{
		{"automation_key", s.AutomationKey != nil},
		{"claim", s.Claim != nil},
		{"execution_boundary", s.ExecutionBoundary != nil},
		{"finalization_approval", s.FinalizationApproval != nil},
		{"finalization_manifest", s.FinalizationManifest != nil},
		{"finalization_plan_hash", s.FinalizationPlanHash != nil},
		{"finalized_at", s.FinalizedAt != nil},
		{"merge_gate_report", s.MergeGateReport != nil},
		{"owned_automation_id", s.OwnedAutomationID != nil},
		{"remediation_approval", s.RemediationApproval != nil},
		{"remediation_manifest", s.RemediationManifest != nil},
		{"remediation_plan_hash", s.RemediationPlanHash != nil},
		{"remote_name", s.RemoteName != nil},
	} {
		if f.set {
			errs.Add("/"+f.key, problems.InvalidValue, "%q must be null in report-only mode", f.key)
		}
	}
	if len(s.Automations) != 0 {
		errs.Add("/automations", problems.InvalidValue, "report-only never reads the Automation registry; automations must be []")
	}
}

func checkIdentity(s schema.State, errs *problems.List) {
	validate.CheckRepository(s.Repository, "/repository", errs)
	validate.CheckRefName(s.BaseBranch, "/base_branch", errs)
	validate.CheckRefName(s.HeadBranch, "/head_branch", errs)
	// GitHub spells the owner and repository as created; the state's
	// repository is lowercase, so the URL is compared without case.
	wantURL := "https://github.com/" + s.Repository + "/pull/" + itoa(s.PR.Number)
	if !strings.EqualFold(s.PR.URL, wantURL) {
		errs.Add("/pr/url", problems.Mismatch, "must be %s, got %q", wantURL, clip(s.PR.URL))
	}
	if s.AutomationKey != nil {
		if want := policy.AutomationKey(s.Repository, s.PR.Number, s.RunID); *s.AutomationKey != want {
			errs.Add("/automation_key", problems.Mismatch, "must be the canonical key %s", want)
		}
	}
	if s.OwnedAutomationID != nil && *s.OwnedAutomationID == "" {
		errs.Add("/owned_automation_id", problems.InvalidValue, "must not be empty")
	}
	if s.RemoteName != nil {
		validate.CheckRefName(*s.RemoteName, "/remote_name", errs)
	}
}

// checkRequest: the four request fields describe one request, so they are
// all set or all null, and the deadline is the policy's, in the product form.
func checkRequest(s schema.State, errs *problems.List) {
	hasRequest := s.RequestCommentID != nil
	for _, f := range []struct {
		key string
		set bool
	}{
		{"request_created_at", s.RequestCreatedAt != nil},
		{"request_deadline", s.RequestDeadline != nil},
		{"request_head_sha", s.RequestHeadSHA != nil},
	} {
		// The write modes already require all four (checkModeFields).
		if f.set != hasRequest && s.Mode == policy.ModeReportOnly {
			errs.Add("/"+f.key, problems.Inconsistent, "must be set exactly when request_comment_id is set")
		}
	}
	if s.RequestCreatedAt == nil || s.RequestDeadline == nil {
		return
	}
	if !schema.IsProductTime(*s.RequestDeadline) {
		errs.Add("/request_deadline", problems.InvalidTimestamp, "must be written as YYYY-MM-DDTHH:MM:SSZ, got %q", clip(*s.RequestDeadline))
		return
	}
	created, err1 := schema.ParseTime(*s.RequestCreatedAt)
	deadline, err2 := schema.ParseTime(*s.RequestDeadline)
	if err1 == nil && err2 == nil && !deadline.Equal(created.Add(policy.RequestTimeoutSecs*time.Second)) {
		errs.Add("/request_deadline", problems.Policy, "must be request_created_at + %d s (%s)",
			policy.RequestTimeoutSecs, schema.FormatTime(created.Add(policy.RequestTimeoutSecs*time.Second)))
	}
}

func checkCompletedKeys(s schema.State, errs *problems.List) {
	seen := make(map[string]bool, len(s.CompletedRequestKeys))
	for i, k := range s.CompletedRequestKeys {
		p := problems.Join("/completed_request_keys", i)
		if !reRequestKey.MatchString(k) {
			errs.Add(p, problems.InvalidValue, "must be <comment-id>:<40-hex-sha>, got %q", clip(k))
		}
		if seen[k] {
			errs.Add(p, problems.Duplicate, "request key %q is listed twice", clip(k))
		}
		seen[k] = true
	}
}

func checkThreadLists(s schema.State, errs *problems.List) {
	checkThreadOrder(s.ActionableCodexThreads, "/actionable_codex_threads", errs)
	checkThreadOrder(s.EligibleCodexThreads, "/eligible_codex_threads", errs)
	// Actionable means not answered, eligible means answered: one thread
	// cannot be both.
	actionable := make(map[string]bool, len(s.ActionableCodexThreads))
	for _, t := range s.ActionableCodexThreads {
		actionable[t.ID] = true
	}
	for i, t := range s.EligibleCodexThreads {
		if actionable[t.ID] {
			errs.Add(problems.Join(problems.Join("/eligible_codex_threads", i), "id"), problems.Inconsistent,
				"thread %q is also actionable", clip(t.ID))
		}
	}
}

// checkThreadOrder: thread snapshots are sorted by id and unique.
func checkThreadOrder(ts []schema.Thread, path string, errs *problems.List) {
	for i := 1; i < len(ts); i++ {
		switch {
		case ts[i].ID == ts[i-1].ID:
			errs.Add(problems.Join(path, i), problems.Duplicate, "thread %q is listed twice", clip(ts[i].ID))
		case ts[i].ID < ts[i-1].ID:
			errs.Add(problems.Join(path, i), problems.NotSorted, "threads must be sorted by id")
		}
	}
}

// checkResponseOrder: responses are sorted by source, then numeric id, and unique.
func checkResponseOrder(rs []schema.Response, path string, errs *problems.List) {
	for i := 1; i < len(rs); i++ {
		switch c := compareResponses(rs[i-1], rs[i]); {
		case c == 0:
			errs.Add(problems.Join(path, i), problems.Duplicate, "response %s %s is listed twice", rs[i].Source, rs[i].ID)
		case c > 0:
			errs.Add(problems.Join(path, i), problems.NotSorted, "responses must be sorted by source (issue-comment, review, review-comment), then numeric id")
		}
	}
}

// responsePath is a response's pointer; checkResponses builds it for every
// response, so it avoids the generic join.
func responsePath(i int) string { return "/responses/" + strconv.Itoa(i) }

// before reports whether a readable timestamp lies before t.
func before(ts string, t time.Time) bool {
	v, err := schema.ParseTime(ts)
	return err == nil && v.Before(t)
}

func checkResponses(s schema.State, errs *problems.List) {
	checkResponseOrder(s.Responses, "/responses", errs)
	var created time.Time
	haveCreated := false
	if s.RequestCreatedAt != nil {
		t, err := schema.ParseTime(*s.RequestCreatedAt)
		created, haveCreated = t, err == nil
	}
	for i, r := range s.Responses {
		at := func(field string) string { return responsePath(i) + "/" + field }
		if r.BotID != policy.CodexBotID {
			errs.Add(at("bot_id"), problems.Policy, "a trusted response is authored by the Codex bot %d", policy.CodexBotID)
		}
		if r.BotType != policy.CodexBotType {
			errs.Add(at("bot_type"), problems.Policy, "a trusted response's author type is %q", policy.CodexBotType)
		}
		if r.ZeroFindingsSignal && r.Source == policy.SourceReviewComment {
			errs.Add(at("zero_findings_signal"), problems.InvalidValue, "an inline review comment is never a zero-findings signal")
		}
		switch {
		case r.TriggerRequestCommentID == nil:
			if s.Mode != policy.ModeReportOnly {
				errs.Add(at("trigger_request_comment_id"), problems.Mismatch, "in %s mode every response qualifies for the pending request", s.Mode)
			}
			continue
		case s.RequestCommentID == nil || *r.TriggerRequestCommentID != *s.RequestCommentID:
			errs.Add(at("trigger_request_comment_id"), problems.Mismatch, "must be the pending request_comment_id or null")
			continue
		}
		if haveCreated && before(r.CreatedAt, created) && (r.Source != policy.SourceIssueComment || before(r.ContentVersionAt, created)) {
			errs.Add(at("created_at"), problems.Inconsistent, "a qualifying response is created at or after request_created_at (an issue comment: created or last edited, as the summary comment qualifies by its edit)")
		}
		if r.CommitSHA != nil && s.RequestHeadSHA != nil && *r.CommitSHA != *s.RequestHeadSHA {
			errs.Add(at("commit_sha"), problems.Mismatch, "a qualifying response is about request_head_sha")
		}
	}
}

// checkPlanFields: each plan travels with its hash (the canonical hash of the
// raw manifest as it stands in the state), an approval only with its plan,
// and one plan at a time.
func checkPlanFields(s schema.State, raw map[string]any, errs *problems.List) {
	checkPlanHash(raw, "remediation_manifest", "remediation_plan_hash", s.RemediationManifest != nil, s.RemediationPlanHash, errs)
	checkPlanHash(raw, "finalization_manifest", "finalization_plan_hash", s.FinalizationManifest != nil, s.FinalizationPlanHash, errs)
	if s.RemediationApproval != nil && s.RemediationManifest == nil {
		errs.Add("/remediation_approval", problems.Inconsistent, "an approval needs the remediation plan it approves")
	}
	if s.FinalizationApproval != nil && s.FinalizationManifest == nil {
		errs.Add("/finalization_approval", problems.Inconsistent, "an approval needs the finalization plan it approves")
	}
	if s.RemediationManifest != nil && s.FinalizationManifest != nil {
		errs.Add("/finalization_manifest", problems.Inconsistent, "a state holds at most one plan; a remediation plan is already present")
	}
}

func checkPlanHash(raw map[string]any, manifestKey, hashKey string, present bool, hash *string, errs *problems.List) {
	p := "/" + hashKey
	switch {
	case present && hash == nil:
		errs.Add(p, problems.Inconsistent, "%s is present, so %s must be its hash", manifestKey, hashKey)
	case !present && hash != nil:
		errs.Add(p, problems.Inconsistent, "%s is null, so %s must be null", manifestKey, hashKey)
	case present:
		got, err := canon.HashValue(raw[manifestKey])
		if err != nil {
			errs.Add("/"+manifestKey, problems.InvalidValue, "cannot be hashed: %v", err)
		} else if got != *hash {
			errs.Add(p, problems.HashMismatch, "the canonical hash of %s is %s", manifestKey, got)
		}
	}
}

func checkClaim(s schema.State, errs *problems.List) {
	c := s.Claim
	if c == nil {
		return
	}
	claimed, err1 := schema.ParseTime(c.ClaimedAt)
	expires, err2 := schema.ParseTime(c.ExpiresAt)
	if err1 == nil && err2 == nil && !expires.Equal(claimed.Add(policy.ClaimTTLSecs*time.Second)) {
		errs.Add("/claim/expires_at", problems.Policy, "must be claimed_at + %d s", policy.ClaimTTLSecs)
	}
	if key := requestKey(s); c.RequestKey != key {
		errs.Add("/claim/request_key", problems.Mismatch, "a claim is on the pending request %q", key)
	}
}

// checkFinalized: finalized_at, the merge-gate report and the finalization
// plan that produced them come together.
func checkFinalized(s schema.State, errs *problems.List) {
	if (s.FinalizedAt != nil) != (s.MergeGateReport != nil) {
		errs.Add("/merge_gate_report", problems.Inconsistent, "is set exactly when finalized_at is set")
	}
	if s.FinalizedAt != nil && s.FinalizationManifest == nil {
		errs.Add("/finalized_at", problems.Inconsistent, "a finalized state keeps the finalization plan that finished it")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
