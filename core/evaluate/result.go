package evaluate

import "github.com/prloop/gh-prloop/core/problems"

// Actions: the closed vocabulary of PROTOCOL §5.
const (
	ActionWait                = "wait"
	ActionAwaitApproval       = "await-approval"
	ActionPlanRemediation     = "plan-remediation"
	ActionExecuteRemediation  = "execute-remediation"
	ActionPlanFinalization    = "plan-finalization"
	ActionExecuteFinalization = "execute-finalization"
	ActionFinishFinalization  = "finish-finalization"
	ActionDone                = "done"
	ActionHalt                = "halt"
	ActionReport              = "report"
)

// Reasons. The consistency reasons double as the entries of
// Result.Inconsistencies.
const (
	ReasonSchema                 = "schema"
	ReasonAutomationMissing      = "automation-missing"
	ReasonAutomationDuplicate    = "automation-duplicate"
	ReasonAutomationMismatch     = "automation-mismatch"
	ReasonPausedBootstrap        = "paused-bootstrap"
	ReasonPRClosed               = "pr-closed"
	ReasonPRMerged               = "pr-merged"
	ReasonPRCrossRepository      = "pr-cross-repository"
	ReasonBranchDrift            = "branch-drift"
	ReasonHeadDrift              = "head-drift"
	ReasonBaseDrift              = "base-drift"
	ReasonRemoteDrift            = "remote-drift"
	ReasonClaimed                = "claimed"
	ReasonStaleClaim             = "stale-claim"
	ReasonInvalidPlan            = "invalid-plan"
	ReasonRemediationPlan        = "remediation-plan"
	ReasonFinalizationPlan       = "finalization-plan"
	ReasonApproved               = "approved"
	ReasonAutonomous             = "autonomous"
	ReasonPostMutation           = "post-mutation"
	ReasonFinalizationIncomplete = "finalization-incomplete"
	ReasonFinalized              = "finalized"
	ReasonAwaitingResponse       = "awaiting-response"
	ReasonRequestTimeout         = "request-timeout"
	ReasonFixRoundLimit          = "fix-round-limit"
	ReasonFindings               = "findings"
	ReasonZeroFindings           = "zero-findings"
	ReasonAmbiguousResponse      = "ambiguous-response"
	ReasonCodexNotice            = "codex-notice"
)

// Report-only classifications (PROTOCOL §5 step 2).
const (
	ClassNoRequest        = "no-request"
	ClassAwaitingResponse = "awaiting-response"
	ClassFindings         = "findings"
	ClassZeroFindings     = "zero-findings"
	ClassAmbiguous        = "ambiguous"
)

// Result is what `evaluate --state` prints.
type Result struct {
	OK              bool          `json:"ok"`
	Action          string        `json:"action"`
	Reason          string        `json:"reason"`
	Message         string        `json:"message"`
	Classification  string        `json:"classification,omitempty"`
	Inconsistencies []string      `json:"inconsistencies,omitempty"`
	PlanHash        string        `json:"plan_hash,omitempty"`
	Errors          problems.List `json:"errors"`
}

func result(action, reason, message string) Result {
	return Result{OK: action != ActionHalt, Action: action, Reason: reason, Message: message, Errors: problems.List{}}
}

func halt(reason, message string) Result { return result(ActionHalt, reason, message) }
