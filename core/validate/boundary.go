package validate

import (
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// CheckBoundary enforces the execution boundary's containment rules. The safe
// isolation demands the sanitized profile, every protection, no clean filter
// and no risk record; explicit-risk-acceptance demands its own profile and
// the digest of the accepted risk record, and may then carry whatever
// protections and filters were actually observed.
func CheckBoundary(b schema.Boundary, path string, errs *problems.List) {
	git := problems.Join(path, "git")
	if b.Git.CredentialStrategy != policy.CredentialStrategy {
		errs.Add(problems.Join(git, "credential_strategy"), problems.Policy,
			"must be %q, got %q", policy.CredentialStrategy, b.Git.CredentialStrategy)
	}
	checkSortedUnique(b.Git.ActiveCleanFilters, problems.Join(git, "active_clean_filters"), errs)
	switch b.Isolation {
	case policy.IsolationSafe:
		if b.Git.Profile != policy.SafeProfile {
			errs.Add(problems.Join(git, "profile"), problems.Policy,
				"isolation %q requires profile %q, got %q", b.Isolation, policy.SafeProfile, b.Git.Profile)
		}
		if b.RiskAcceptanceSHA256 != nil {
			errs.Add(problems.Join(path, "risk_acceptance_sha256"), problems.Policy,
				"isolation %q requires null", b.Isolation)
		}
		for _, p := range protections(b.Git) {
			if !p.on {
				errs.Add(problems.Join(git, p.name), problems.Policy, "the safe profile requires %s to be true", p.name)
			}
		}
		if len(b.Git.ActiveCleanFilters) > 0 {
			errs.Add(problems.Join(git, "active_clean_filters"), problems.Policy,
				"the safe profile allows no active clean filter, got %d", len(b.Git.ActiveCleanFilters))
		}
	case policy.IsolationRisk:
		if b.Git.Profile != policy.RiskProfile {
			errs.Add(problems.Join(git, "profile"), problems.Policy,
				"isolation %q requires profile %q, got %q", b.Isolation, policy.RiskProfile, b.Git.Profile)
		}
		if b.RiskAcceptanceSHA256 == nil {
			errs.Add(problems.Join(path, "risk_acceptance_sha256"), problems.Policy,
				"isolation %q requires the digest of the accepted risk record", b.Isolation)
		}
	default:
		errs.Add(problems.Join(path, "isolation"), problems.InvalidValue,
			"must be %q or %q, got %q", policy.IsolationSafe, policy.IsolationRisk, b.Isolation)
	}
}

type protection struct {
	name string
	on   bool
}

// protections lists the boolean guarantees in schema order.
func protections(g schema.GitBoundary) []protection {
	return []protection{
		{"external_diff_disabled", g.ExternalDiffDisabled},
		{"fsmonitor_disabled", g.FsmonitorDisabled},
		{"hooks_disabled", g.HooksDisabled},
		{"protect_hfs_enabled", g.ProtectHFSEnabled},
		{"protect_ntfs_enabled", g.ProtectNTFSEnabled},
		{"protocol_restricted", g.ProtocolRestricted},
		{"signing_disabled", g.SigningDisabled},
		{"textconv_disabled", g.TextconvDisabled},
	}
}

// checkSortedUnique keeps an enumerated set (the clean filters) in one
// spelling, so the same observation always hashes the same.
func checkSortedUnique(list []string, path string, errs *problems.List) {
	seen := make(map[string]bool, len(list))
	for i, s := range list {
		at := problems.Join(path, i)
		switch {
		case s == "":
			errs.Add(at, problems.InvalidValue, "must not be empty")
		case seen[s]:
			errs.Add(at, problems.Duplicate, "%q is listed twice", s)
		case i > 0 && list[i-1] > s:
			errs.Add(at, problems.NotSorted, "%q sorts before %q", s, list[i-1])
		}
		seen[s] = true
	}
}
