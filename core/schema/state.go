package schema

import "github.com/prloop/gh-prloop/core/problems"

// Automation is one entry of the Automation registry as the state sees it.
type Automation struct {
	ID           string `json:"id"`
	Key          string `json:"key"`
	PromptSHA256 string `json:"prompt_sha256"`
	RRule        string `json:"rrule"`
	Status       string `json:"status"` // PAUSED | ACTIVE
}

// Claim is a lease on the current request by one executor.
type Claim struct {
	ClaimedAt  string `json:"claimed_at"`
	ExpiresAt  string `json:"expires_at"`
	Holder     string `json:"holder"`
	PlanHash   string `json:"plan_hash"`
	RequestKey string `json:"request_key"`
}

// Approval records a human naming an exact plan hash.
type Approval struct {
	ApprovedAt string `json:"approved_at"`
	ApproverID int64  `json:"approver_id"`
	PlanHash   string `json:"plan_hash"`
}

// MergeGateReport is the fresh gate reading taken after finalization.
type MergeGateReport struct {
	Gates  Gates  `json:"gates"`
	ReadAt string `json:"read_at"`
}

// PRState is the freshly fetched pull request.
type PRState struct {
	BaseBranch     string `json:"base_branch"`
	HeadBranch     string `json:"head_branch"`
	HeadSHA        string `json:"head_sha"`
	IsDraft        bool   `json:"is_draft"`
	Number         int64  `json:"number"`
	SameRepository bool   `json:"same_repository"`
	State          string `json:"state"` // open | closed | merged
	URL            string `json:"url"`
}

// State is the recurring evaluator state (PROTOCOL §5): the input of every wakeup.
type State struct {
	ActionableCodexThreads []Thread              `json:"actionable_codex_threads"`
	AuthenticatedUserID    int64                 `json:"authenticated_user_id"`
	AutomationKey          *string               `json:"automation_key"`
	Automations            []Automation          `json:"automations"`
	BaseBranch             string                `json:"base_branch"`
	BaseSHA                string                `json:"base_sha"`
	Claim                  *Claim                `json:"claim"`
	CompletedRequestKeys   []string              `json:"completed_request_keys"`
	CurrentHeadSHA         string                `json:"current_head_sha"`
	EligibleCodexThreads   []Thread              `json:"eligible_codex_threads"`
	ExecutionBoundary      *Boundary             `json:"execution_boundary"`
	FinalizationApproval   *Approval             `json:"finalization_approval"`
	FinalizationManifest   *FinalizationManifest `json:"finalization_manifest"`
	FinalizationPlanHash   *string               `json:"finalization_plan_hash"`
	FinalizedAt            *string               `json:"finalized_at"`
	FixRounds              int64                 `json:"fix_rounds"`
	Gates                  Gates                 `json:"gates"`
	HeadBranch             string                `json:"head_branch"`
	MergeGateReport        *MergeGateReport      `json:"merge_gate_report"`
	Mode                   string                `json:"mode"`
	NonCodexRootedThreads  int64                 `json:"non_codex_rooted_threads"`
	ObservedAt             string                `json:"observed_at"`
	OwnedAutomationID      *string               `json:"owned_automation_id"`
	PolicySchemaVersion    int64                 `json:"policy_schema_version"`
	PR                     PRState               `json:"pr"`
	RemediationApproval    *Approval             `json:"remediation_approval"`
	RemediationManifest    *RemediationManifest  `json:"remediation_manifest"`
	RemediationPlanHash    *string               `json:"remediation_plan_hash"`
	RemoteName             *string               `json:"remote_name"`
	Repository             string                `json:"repository"`
	RequestCommentID       *int64                `json:"request_comment_id"`
	RequestCreatedAt       *string               `json:"request_created_at"`
	RequestDeadline        *string               `json:"request_deadline"`
	RequestHeadSHA         *string               `json:"request_head_sha"`
	Responses              []Response            `json:"responses"`
	RunID                  string                `json:"run_id"`
}

func decodeApproval(o *obj, key string) *Approval {
	v, ok := o.get(key, true)
	if !ok {
		return nil
	}
	a := newObj(v, o.p(key), o.errs)
	ap := &Approval{ApprovedAt: a.timestamp("approved_at"), ApproverID: a.id("approver_id"), PlanHash: a.sha256("plan_hash")}
	a.done()
	return ap
}

// DecodeState decodes a recurring state exactly.
func DecodeState(v any, path string, errs *problems.List) State {
	o := newObj(v, path, errs)
	var s State
	s.ActionableCodexThreads = decodeThreads(o, "actionable_codex_threads")
	s.AuthenticatedUserID = o.id("authenticated_user_id")
	s.AutomationKey = o.optStr("automation_key")
	s.Automations = []Automation{}
	o.array("automations", func(v any, p string) {
		a := newObj(v, p, errs)
		s.Automations = append(s.Automations, Automation{
			ID:           a.str("id"),
			Key:          a.str("key"),
			PromptSHA256: a.sha256("prompt_sha256"),
			RRule:        a.str("rrule"),
			Status:       a.enum("status", "PAUSED", "ACTIVE"),
		})
		a.done()
	})
	s.BaseBranch = o.str("base_branch")
	s.BaseSHA = o.sha1("base_sha")
	if c, ok := o.get("claim", true); ok {
		co := newObj(c, o.p("claim"), errs)
		s.Claim = &Claim{
			ClaimedAt:  co.timestamp("claimed_at"),
			ExpiresAt:  co.timestamp("expires_at"),
			Holder:     co.str("holder"),
			PlanHash:   co.sha256("plan_hash"),
			RequestKey: co.str("request_key"),
		}
		co.done()
	}
	s.CompletedRequestKeys = o.strings("completed_request_keys")
	s.CurrentHeadSHA = o.sha1("current_head_sha")
	s.EligibleCodexThreads = decodeThreads(o, "eligible_codex_threads")
	if b, ok := o.get("execution_boundary", true); ok {
		bd := DecodeBoundary(b, o.p("execution_boundary"), errs)
		s.ExecutionBoundary = &bd
	}
	s.FinalizationApproval = decodeApproval(o, "finalization_approval")
	if m, ok := o.get("finalization_manifest", true); ok {
		fm := DecodeFinalizationManifest(m, o.p("finalization_manifest"), errs)
		s.FinalizationManifest = &fm
	}
	s.FinalizationPlanHash = o.optSHA256("finalization_plan_hash")
	s.FinalizedAt = o.optTimestamp("finalized_at")
	s.FixRounds = o.nonNeg("fix_rounds")
	if g, ok := o.get("gates", false); ok {
		s.Gates = DecodeGates(g, o.p("gates"), errs)
	}
	s.HeadBranch = o.str("head_branch")
	if r, ok := o.get("merge_gate_report", true); ok {
		ro := newObj(r, o.p("merge_gate_report"), errs)
		rep := &MergeGateReport{}
		if g, ok := ro.get("gates", false); ok {
			rep.Gates = DecodeGates(g, ro.p("gates"), errs)
		}
		rep.ReadAt = ro.timestamp("read_at")
		ro.done()
		s.MergeGateReport = rep
	}
	s.Mode = o.enum("mode", "autonomous", "approval-gated", "report-only")
	s.NonCodexRootedThreads = o.nonNeg("non_codex_rooted_threads")
	s.ObservedAt = o.timestamp("observed_at")
	s.OwnedAutomationID = o.optStr("owned_automation_id")
	s.PolicySchemaVersion = o.exactInt("policy_schema_version", 1)
	if p, ok := o.get("pr", false); ok {
		po := newObj(p, o.p("pr"), errs)
		s.PR = PRState{
			BaseBranch:     po.str("base_branch"),
			HeadBranch:     po.str("head_branch"),
			HeadSHA:        po.sha1("head_sha"),
			IsDraft:        po.boolean("is_draft"),
			Number:         po.id("number"),
			SameRepository: po.boolean("same_repository"),
			State:          po.enum("state", "open", "closed", "merged"),
			URL:            po.str("url"),
		}
		po.done()
	}
	s.RemediationApproval = decodeApproval(o, "remediation_approval")
	if m, ok := o.get("remediation_manifest", true); ok {
		rm := DecodeRemediationManifest(m, o.p("remediation_manifest"), errs)
		s.RemediationManifest = &rm
	}
	s.RemediationPlanHash = o.optSHA256("remediation_plan_hash")
	s.RemoteName = o.optStr("remote_name")
	s.Repository = o.str("repository")
	s.RequestCommentID = o.optID("request_comment_id")
	s.RequestCreatedAt = o.optTimestamp("request_created_at")
	s.RequestDeadline = o.optTimestamp("request_deadline")
	s.RequestHeadSHA = o.optSHA1("request_head_sha")
	s.Responses = decodeResponses(o, "responses")
	s.RunID = o.runID("run_id")
	o.done()
	return s
}
