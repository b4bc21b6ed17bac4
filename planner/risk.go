package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/sandbox"
)

// RiskRecord is the risk acceptance record (manifest schema: "Use
// explicit-risk-acceptance … only after the user accepts the exact
// unavailable isolation guarantees and commands"): every guarantee the
// plan cannot give, and the commands that would run without it. Its
// canonical SHA-256 is the boundary's risk_acceptance_sha256, so typing the
// plan hash accepts exactly this record.
type RiskRecord struct {
	Version int `json:"version"`
	// MissingIsolation names each sandbox guarantee this machine cannot
	// give (sandbox.Guarantee* words), in the probe's order.
	MissingIsolation []string `json:"missing_isolation_guarantees"`
	// Commands are the snapshot's commands, which would run without them.
	Commands []schema.Command `json:"commands"`
	// The git side, non-empty only under Inputs.AcceptRisk: protections
	// git does not apply (boundary field names), active clean filters and
	// repository settings the safe profile refuses.
	GitMissingProtections []string `json:"git_missing_protections"`
	GitActiveCleanFilters []string `json:"git_active_clean_filters"`
	GitUnsafeConfig       []string `json:"git_unsafe_config"`
}

// Lines are the record in words, one accepted risk a line, for the
// approval console.
func (r *RiskRecord) Lines() []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, g := range r.MissingIsolation {
		out = append(out, "not given: "+g)
	}
	if len(r.GitMissingProtections) > 0 {
		out = append(out, "git protections off: "+strings.Join(r.GitMissingProtections, ", "))
	}
	if len(r.GitActiveCleanFilters) > 0 {
		out = append(out, "clean filters will run: "+strings.Join(r.GitActiveCleanFilters, ", "))
	}
	if len(r.GitUnsafeConfig) > 0 {
		out = append(out, "unsafe repository settings: "+strings.Join(r.GitUnsafeConfig, "; "))
	}
	return out
}

// ProbeFunc reports what the sandbox can give on this machine.
type ProbeFunc func(context.Context) sandbox.Capabilities

// applyIsolation decides the boundary's isolation (PROTOCOL §8): the safe
// no-network-minimal-env-checkout-only only when the probe shows every
// guarantee and git needs no acceptance; otherwise explicit-risk-acceptance
// with the explicit-risk-acceptance-v1 git profile (core ties the two) and
// the digest of the record naming each missing guarantee. Autonomous mode
// has no human to accept a risk, so it is refused there unless the human
// passed AcceptRisk.
func applyIsolation(snap *schema.InitialSnapshot, caps sandbox.Capabilities, obs *local.Observation, mode string, acceptRisk bool) (*RiskRecord, error) {
	b := &snap.ExecutionBoundary
	if caps.All() && !acceptRisk {
		b.Isolation, b.Git.Profile, b.RiskAcceptanceSHA256 = policy.IsolationSafe, policy.SafeProfile, nil
		return nil, nil
	}
	if mode == policy.ModeAutonomous && !acceptRisk {
		return nil, fmt.Errorf("this machine cannot give the sandbox's guarantees (%s); autonomous mode cannot accept that risk for you: use --mode approval-gated and approve the risk on the console",
			strings.Join(caps.Reasons, "; "))
	}
	r := &RiskRecord{
		Version:               1,
		MissingIsolation:      append([]string{}, caps.Missing...),
		Commands:              append([]schema.Command{}, snap.Commands...),
		GitMissingProtections: missingGitProtections(b.Git),
		GitActiveCleanFilters: append([]string{}, b.Git.ActiveCleanFilters...),
		GitUnsafeConfig:       append([]string{}, obs.UnsafeConfig...),
	}
	sum, err := canon.HashValue(r)
	if err != nil {
		return nil, err
	}
	b.Isolation, b.Git.Profile, b.RiskAcceptanceSHA256 = policy.IsolationRisk, policy.RiskProfile, &sum
	return r, nil
}

func missingGitProtections(g schema.GitBoundary) []string {
	out := []string{}
	for _, p := range []struct {
		on   bool
		name string
	}{
		{g.ExternalDiffDisabled, "external_diff_disabled"},
		{g.FsmonitorDisabled, "fsmonitor_disabled"},
		{g.HooksDisabled, "hooks_disabled"},
		{g.ProtectHFSEnabled, "protect_hfs_enabled"},
		{g.ProtectNTFSEnabled, "protect_ntfs_enabled"},
		{g.ProtocolRestricted, "protocol_restricted"},
		{g.SigningDisabled, "signing_disabled"},
		{g.TextconvDisabled, "textconv_disabled"},
	} {
		if !p.on {
			out = append(out, p.name)
		}
	}
	return out
}
