package validate

import (
	"slices"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// InitialResult is what `evaluate --initial` reports. PlanHash and
// SnapshotSHA256 are recomputed from the raw input (never copied from it), so
// a caller comparing two validations compares what was actually validated.
// The result is authoritative only when the problem list is empty.
type InitialResult struct {
	PlanHash       string
	SnapshotSHA256 string
	Operations     []string
	Doc            schema.InitialDocument
}

// Initial validates a parsed outer initial document.
func Initial(raw any) (InitialResult, problems.List) { return InitialAt(raw, "") }

// InitialAt validates an initial document found at path inside a larger
// document (the prompt document embeds one), so problems carry full paths.
func InitialAt(raw any, path string) (InitialResult, problems.List) {
	var errs problems.List
	doc := schema.DecodeInitialDocument(raw, path, &errs)
	// A copy of the decoder's problems only: a rule's own finding must not
	// switch off another rule reading the same field.
	d := slices.Clone(errs)
	res := InitialResult{Doc: doc, Operations: doc.InitialManifest.Operations}

	top, _ := raw.(map[string]any)
	// Digests are compared only for objects: a null or mistyped sub-document
	// is already reported, and "its hash differs" would add nothing.
	snapRaw, hasSnap := top["initial_snapshot"].(map[string]any)
	manRaw, hasMan := top["initial_manifest"].(map[string]any)
	sp := problems.Join(path, "initial_snapshot")
	mp := problems.Join(path, "initial_manifest")

	if hasSnap {
		res.SnapshotSHA256 = hashOrEmpty(snapRaw)
		checkSnapshot(doc.InitialSnapshot, sp, d, &errs)
	}
	if hasMan {
		res.PlanHash = hashOrEmpty(manRaw)
		checkManifest(doc.InitialManifest, mp, d, &errs)
	}
	if hasSnap && hasMan {
		s := doc.InitialSnapshot
		deps := []string{sp + "/commands", sp + "/create_branch_required", sp + "/commit_required",
			sp + "/push_required", sp + "/existing_pr_number"}
		if d.CleanAt(append(deps, mp+"/operations")...) {
			CheckOperations(doc.InitialManifest.Operations, ExpectedInitialOperations(s), mp+"/operations", &errs)
		}
		if d.CleanAt(mp+"/snapshot_sha256") && doc.InitialManifest.SnapshotSHA256 != res.SnapshotSHA256 {
			errs.Add(mp+"/snapshot_sha256", problems.HashMismatch,
				"is %s but the canonical initial_snapshot hashes to %s", doc.InitialManifest.SnapshotSHA256, res.SnapshotSHA256)
		}
	}
	if hasMan && d.CleanAt(path+"/initial_plan_hash") && doc.InitialPlanHash != res.PlanHash {
		errs.Add(path+"/initial_plan_hash", problems.HashMismatch,
			"is %s but the canonical initial_manifest hashes to %s", doc.InitialPlanHash, res.PlanHash)
	}
	return res, errs
}

func hashOrEmpty(v any) string {
	h, err := canon.HashValue(v)
	if err != nil {
		return ""
	}
	return h
}

func checkSnapshot(s schema.InitialSnapshot, sp string, d problems.List, errs *problems.List) {
	at := func(k string) string { return sp + "/" + k }
	checkExistingPR(s, sp, d, errs)
	if d.CleanAt(at("heartbeat_rrule")) && s.HeartbeatRRule != policy.HeartbeatRRule {
		errs.Add(at("heartbeat_rrule"), problems.Policy, "must be %q, got %q", policy.HeartbeatRRule, s.HeartbeatRRule)
	}
	if d.CleanAt(at("host")) && s.Host != policy.Host {
		errs.Add(at("host"), problems.Policy, "must be %q, got %q", policy.Host, s.Host)
	}
	if d.CleanAt(at("repository")) {
		CheckRepository(s.Repository, at("repository"), errs)
	}
	if d.CleanAt(at("base_branch")) {
		CheckRefName(s.BaseBranch, at("base_branch"), errs)
	}
	if d.CleanAt(at("head_branch")) {
		CheckRefName(s.HeadBranch, at("head_branch"), errs)
		if d.CleanAt(at("base_branch")) && s.HeadBranch == s.BaseBranch {
			errs.Add(at("head_branch"), problems.InvalidValue, "a pull request cannot merge %q into itself", s.HeadBranch)
		}
	}
	if d.CleanAt(at("remote_name")) {
		CheckRefName(s.RemoteName, at("remote_name"), errs)
	}
	if d.CleanAt(at("paths"), at("path_records")) {
		CheckPathSet(s.Paths, s.PathRecords, at("paths"), at("path_records"), errs)
	}
	if d.CleanAt(at("commands")) {
		CheckCommands(s.Commands, at("commands"), errs)
	}
	if d.CleanAt(at("execution_boundary")) {
		CheckBoundary(s.ExecutionBoundary, at("execution_boundary"), errs)
	}
	if d.CleanAt(at("commit_required"), at("push_required")) && s.CommitRequired && !s.PushRequired {
		errs.Add(at("push_required"), problems.InvalidValue,
			"commit_required needs push_required: an unpushed commit can never be the PR head")
	}
	if d.CleanAt(at("commit_required"), at("paths")) && s.CommitRequired && len(s.Paths) == 0 {
		errs.Add(at("paths"), problems.InvalidValue, "commit_required needs at least one path to stage")
	}
}

// checkExistingPR enforces "all null or all describe the one reused PR".
func checkExistingPR(s schema.InitialSnapshot, sp string, d problems.List, errs *problems.List) {
	fields := []struct {
		key string
		set bool
	}{
		{"existing_pr_base_branch", s.ExistingPRBaseBranch != nil},
		{"existing_pr_head_branch", s.ExistingPRHeadBranch != nil},
		{"existing_pr_head_sha", s.ExistingPRHeadSHA != nil},
		{"existing_pr_number", s.ExistingPRNumber != nil},
		{"existing_pr_same_repository", s.ExistingPRSameRepository != nil},
	}
	var keys []string
	anySet := false
	for _, f := range fields {
		keys = append(keys, sp+"/"+f.key)
		anySet = anySet || f.set
	}
	if !d.CleanAt(keys...) || !anySet {
		return
	}
	complete := true
	for _, f := range fields {
		if !f.set {
			complete = false
			errs.Add(sp+"/"+f.key, problems.Mismatch, "must be set: the existing_pr_* fields are all null or all describe the reused pull request")
		}
	}
	if !complete {
		return
	}
	if !*s.ExistingPRSameRepository {
		errs.Add(sp+"/existing_pr_same_repository", problems.InvalidValue, "a reused pull request must come from the same repository")
	}
	if d.CleanAt(sp+"/base_branch") && *s.ExistingPRBaseBranch != s.BaseBranch {
		errs.Add(sp+"/existing_pr_base_branch", problems.Mismatch, "is %q but base_branch is %q", *s.ExistingPRBaseBranch, s.BaseBranch)
	}
	if d.CleanAt(sp+"/head_branch") && *s.ExistingPRHeadBranch != s.HeadBranch {
		errs.Add(sp+"/existing_pr_head_branch", problems.Mismatch, "is %q but head_branch is %q", *s.ExistingPRHeadBranch, s.HeadBranch)
	}
	if d.CleanAt(sp+"/current_head_sha") && *s.ExistingPRHeadSHA != s.CurrentHeadSHA {
		errs.Add(sp+"/existing_pr_head_sha", problems.Mismatch, "is %s but current_head_sha is %s", *s.ExistingPRHeadSHA, s.CurrentHeadSHA)
	}
}

func checkManifest(m schema.InitialManifest, mp string, d problems.List, errs *problems.List) {
	at := func(k string) string { return mp + "/" + k }
	if d.CleanAt(at("automation_prompt_template")) {
		if m.AutomationPromptTemplate != policy.AutomationPromptTemplate {
			errs.Add(at("automation_prompt_template"), problems.Template, "must equal the evaluator-owned v1 template byte for byte")
		}
		CheckPromptTemplate(m.AutomationPromptTemplate, at("automation_prompt_template"), errs)
		if d.CleanAt(at("automation_prompt_template_sha256")) {
			if h := canon.Hash([]byte(m.AutomationPromptTemplate)); h != m.AutomationPromptTemplateSHA256 {
				errs.Add(at("automation_prompt_template_sha256"), problems.HashMismatch,
					"is %s but the template's UTF-8 bytes hash to %s", m.AutomationPromptTemplateSHA256, h)
			}
		}
	}
	if d.CleanAt(at("review_request_body_template")) {
		if d.CleanAt(at("run_id")) {
			CheckReviewTemplate(m.ReviewRequestBodyTemplate, m.RunID, 0, at("review_request_body_template"), errs)
		}
		if d.CleanAt(at("review_request_body_template_sha256")) {
			if h := canon.Hash([]byte(m.ReviewRequestBodyTemplate)); h != m.ReviewRequestBodyTemplateSHA256 {
				errs.Add(at("review_request_body_template_sha256"), problems.HashMismatch,
					"is %s but the template's UTF-8 bytes hash to %s", m.ReviewRequestBodyTemplateSHA256, h)
			}
		}
	}
}
