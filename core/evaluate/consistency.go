package evaluate

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// inconsistency is one consistency finding: its reason and what was seen.
type inconsistency struct {
	reason  string
	message string
}

// consistency runs every consistency rule of PROTOCOL §5 step 3 and returns
// all findings in the protocol's order, so a human sees every drift at once
// while the action follows the first.
func consistency(s schema.State) []inconsistency {
	var out []inconsistency
	add := func(reason, format string, args ...any) {
		out = append(out, inconsistency{reason, fmt.Sprintf(format, args...)})
	}
	if reason, msg := automationFinding(s); reason != "" {
		add(reason, "%s", msg)
	}
	switch s.PR.State {
	case "closed":
		add(ReasonPRClosed, "pull request #%d is closed", s.PR.Number)
	case "merged":
		add(ReasonPRMerged, "pull request #%d is merged", s.PR.Number)
	}
	if !s.PR.SameRepository {
		add(ReasonPRCrossRepository, "pull request #%d comes from another repository", s.PR.Number)
	}
	if s.PR.BaseBranch != s.BaseBranch || s.PR.HeadBranch != s.HeadBranch {
		add(ReasonBranchDrift, "pull request branches %q <- %q differ from the checkpoint's %q <- %q",
			clip(s.PR.BaseBranch), clip(s.PR.HeadBranch), s.BaseBranch, s.HeadBranch)
	}
	if s.RequestHeadSHA == nil || s.PR.HeadSHA != s.CurrentHeadSHA || s.CurrentHeadSHA != *s.RequestHeadSHA {
		req := "none"
		if s.RequestHeadSHA != nil {
			req = *s.RequestHeadSHA
		}
		add(ReasonHeadDrift, "pull request head %s, current head %s and requested head %s must be one commit",
			s.PR.HeadSHA, s.CurrentHeadSHA, req)
	}
	if branch, sha, remote, ok := planCheckpoint(s); ok {
		if branch != s.BaseBranch || sha != s.BaseSHA {
			add(ReasonBaseDrift, "the plan was made on %q at %s; the base is now %q at %s", branch, sha, s.BaseBranch, s.BaseSHA)
		}
		if s.RemoteName == nil || remote != *s.RemoteName {
			add(ReasonRemoteDrift, "the plan pushes to remote %q, the checkout's validated remote differs", clip(remote))
		}
	}
	if s.Claim != nil {
		observed, err1 := schema.ParseTime(s.ObservedAt)
		expires, err2 := schema.ParseTime(s.Claim.ExpiresAt)
		if err1 == nil && err2 == nil && observed.Before(expires) {
			add(ReasonClaimed, "claimed by %q until %s", clip(s.Claim.Holder), s.Claim.ExpiresAt)
		} else {
			add(ReasonStaleClaim, "the claim of %q expired at %s and was never released", clip(s.Claim.Holder), s.Claim.ExpiresAt)
		}
	}
	return out
}

// automationFinding checks that the registry holds exactly one automation
// with the checkpoint's key and id, on the policy schedule, ACTIVE. A PAUSED
// one that is otherwise exact is the bootstrap stub, awaiting its prompt.
func automationFinding(s schema.State) (reason, message string) {
	key, id := "", ""
	if s.AutomationKey != nil {
		key = *s.AutomationKey
	}
	if s.OwnedAutomationID != nil {
		id = *s.OwnedAutomationID
	}
	var exact []schema.Automation
	partial := 0
	for _, a := range s.Automations {
		switch {
		case a.Key == key && a.ID == id:
			exact = append(exact, a)
		case a.Key == key || a.ID == id:
			partial++
		}
	}
	switch {
	case len(exact) == 0 && partial == 0:
		return ReasonAutomationMissing, fmt.Sprintf("no automation has key %q or id %q", key, id)
	case len(exact) == 0:
		return ReasonAutomationMismatch, fmt.Sprintf("the key %q and the id %q belong to different automations", key, id)
	case len(exact) > 1 || partial > 0:
		return ReasonAutomationDuplicate, fmt.Sprintf("%d automations carry key %q or id %q", len(exact)+partial, key, id)
	}
	a := exact[0]
	switch {
	case a.RRule != policy.HeartbeatRRule:
		return ReasonAutomationMismatch, fmt.Sprintf("automation %q runs on %q, policy is %q", a.ID, a.RRule, policy.HeartbeatRRule)
	case a.Status == "PAUSED":
		return ReasonPausedBootstrap, fmt.Sprintf("automation %q is the PAUSED bootstrap stub", a.ID)
	case a.Status != "ACTIVE":
		return ReasonAutomationMismatch, fmt.Sprintf("automation %q has status %q", a.ID, a.Status)
	}
	return "", ""
}

// planCheckpoint is the base branch, base SHA and remote the plan in the state
// was made against, if there is a plan.
func planCheckpoint(s schema.State) (branch, sha, remote string, ok bool) {
	switch {
	case s.RemediationManifest != nil:
		m := s.RemediationManifest
		return m.BaseBranch, m.BaseSHA, m.RemoteName, true
	case s.FinalizationManifest != nil:
		m := s.FinalizationManifest
		return m.BaseBranch, m.BaseSHA, m.RemoteName, true
	}
	return "", "", "", false
}
