package classify

import (
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// ReadGates reads the four merge gates (PROTOCOL §5). A value GitHub did not
// report, or reported in a spelling this version does not know, is
// "unknown", never a guess.
func ReadGates(obs *observe.PR) schema.Gates {
	if obs == nil {
		return unknownGates()
	}
	pr := obs.PullRequest
	return schema.Gates{
		Approvals:        approvalsGate(pr.ReviewDecision, pr.ReviewRequired),
		BranchProtection: branchProtectionGate(pr.MergeStateStatus),
		Checks:           checksGate(obs),
		Mergeability:     mergeabilityGate(pr.Mergeable),
	}
}

func unknownGates() schema.Gates {
	return schema.Gates{
		Approvals:        policy.GateUnknown,
		BranchProtection: policy.GateUnknown,
		Checks:           policy.GateUnknown,
		Mergeability:     policy.GateUnknown,
	}
}

// approvalsGate: GitHub reports no review decision when the base requires
// none, which passes. If GitHub also said reviews ARE required, an empty
// decision contradicts it and is treated as unread.
func approvalsGate(decision string, required *bool) string {
	switch decision {
	case "APPROVED":
		return policy.GatePass
	case "CHANGES_REQUESTED":
		return policy.GateFail
	case "REVIEW_REQUIRED":
		return policy.GatePending
	case "":
		if required != nil && *required {
			return policy.GateUnknown
		}
		return policy.GatePass
	}
	return policy.GateUnknown
}

func mergeabilityGate(m string) string {
	switch m {
	case "MERGEABLE":
		return policy.GatePass
	case "CONFLICTING":
		return policy.GateFail
	}
	return policy.GateUnknown
}

// branchProtectionGate maps mergeStateStatus. DRAFT says nothing about
// protection (GitHub deprecated it in favour of isDraft), so it is unknown.
func branchProtectionGate(s string) string {
	switch s {
	case "CLEAN", "HAS_HOOKS":
		return policy.GatePass
	case "BLOCKED", "BEHIND", "DIRTY":
		return policy.GateFail
	case "UNSTABLE":
		return policy.GatePending
	}
	return policy.GateUnknown
}

// One check or status, reduced to a gate value.
const (
	rankPass = iota
	rankPending
	rankUnknown
	rankFail
)

// checksGate combines every check run and commit status on the head: any
// failure fails; otherwise anything unreadable is unknown; otherwise anything
// incomplete is pending; all success/neutral/skipped (or nothing at all)
// passes. Unknown ranks above pending because waiting cannot turn a value we
// cannot read into a pass.
func checksGate(obs *observe.PR) string {
	if !obs.ChecksRead {
		return policy.GateUnknown
	}
	worst := rankPass
	for _, c := range obs.CheckRuns {
		worst = max(worst, checkRunRank(c))
	}
	for _, s := range obs.Statuses {
		worst = max(worst, statusRank(s.State))
	}
	return [...]string{policy.GatePass, policy.GatePending, policy.GateUnknown, policy.GateFail}[worst]
}

// checkRunRank accepts REST (lowercase) and GraphQL (uppercase) spellings.
// STALE counts as a failure: GitHub marks a run stale when it will never
// finish on its own, so it can neither pass nor be waited for.
func checkRunRank(c observe.CheckRun) int {
	switch strings.ToLower(c.Status) {
	case "completed":
	case "queued", "in_progress", "pending", "requested", "waiting":
		return rankPending
	default:
		return rankUnknown
	}
	switch strings.ToLower(c.Conclusion) {
	case "success", "neutral", "skipped":
		return rankPass
	case "failure", "timed_out", "cancelled", "action_required", "startup_failure", "stale":
		return rankFail
	}
	return rankUnknown
}

// statusRank: EXPECTED is a required context that has not reported yet.
func statusRank(state string) int {
	switch strings.ToLower(state) {
	case "success":
		return rankPass
	case "failure", "error":
		return rankFail
	case "pending", "expected":
		return rankPending
	}
	return rankUnknown
}
