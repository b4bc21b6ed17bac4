package schema

import "github.com/prloop/gh-prloop/core/problems"

// GitBoundary is the git half of the execution boundary (PROTOCOL §6).
type GitBoundary struct {
	ActiveCleanFilters        []string `json:"active_clean_filters"`
	AttributesSnapshotSHA256  string   `json:"attributes_snapshot_sha256"`
	ConfigSnapshotSHA256      string   `json:"config_snapshot_sha256"`
	CredentialStrategy        string   `json:"credential_strategy"`
	ExternalDiffDisabled      bool     `json:"external_diff_disabled"`
	FsmonitorDisabled         bool     `json:"fsmonitor_disabled"`
	GitMetadataSnapshotSHA256 string   `json:"git_metadata_snapshot_sha256"`
	HooksDisabled             bool     `json:"hooks_disabled"`
	InvocationSHA256          string   `json:"invocation_sha256"`
	Profile                   string   `json:"profile"`
	ProtectHFSEnabled         bool     `json:"protect_hfs_enabled"`
	ProtectNTFSEnabled        bool     `json:"protect_ntfs_enabled"`
	ProtocolRestricted        bool     `json:"protocol_restricted"`
	SigningDisabled           bool     `json:"signing_disabled"`
	TextconvDisabled          bool     `json:"textconv_disabled"`
	TransportURLSHA256        string   `json:"transport_url_sha256"`
}

// Boundary is the execution boundary of the initial snapshot, of the recurring
// state, and (as "execution") of a remediation manifest.
type Boundary struct {
	FilesystemReadScopeSHA256  string      `json:"filesystem_read_scope_sha256"`
	FilesystemWriteScopeSHA256 string      `json:"filesystem_write_scope_sha256"`
	Git                        GitBoundary `json:"git"`
	Isolation                  string      `json:"isolation"`
	RiskAcceptanceSHA256       *string     `json:"risk_acceptance_sha256"`
}

func decodeGitBoundary(v any, path string, errs *problems.List) GitBoundary {
	o := newObj(v, path, errs)
	g := GitBoundary{
		ActiveCleanFilters:        o.strings("active_clean_filters"),
		AttributesSnapshotSHA256:  o.sha256("attributes_snapshot_sha256"),
		ConfigSnapshotSHA256:      o.sha256("config_snapshot_sha256"),
		CredentialStrategy:        o.str("credential_strategy"),
		ExternalDiffDisabled:      o.boolean("external_diff_disabled"),
		FsmonitorDisabled:         o.boolean("fsmonitor_disabled"),
		GitMetadataSnapshotSHA256: o.sha256("git_metadata_snapshot_sha256"),
		HooksDisabled:             o.boolean("hooks_disabled"),
		InvocationSHA256:          o.sha256("invocation_sha256"),
		Profile:                   o.str("profile"),
		ProtectHFSEnabled:         o.boolean("protect_hfs_enabled"),
		ProtectNTFSEnabled:        o.boolean("protect_ntfs_enabled"),
		ProtocolRestricted:        o.boolean("protocol_restricted"),
		SigningDisabled:           o.boolean("signing_disabled"),
		TextconvDisabled:          o.boolean("textconv_disabled"),
		TransportURLSHA256:        o.sha256("transport_url_sha256"),
	}
	o.done()
	return g
}

// DecodeBoundary decodes an execution boundary object exactly.
func DecodeBoundary(v any, path string, errs *problems.List) Boundary {
	o := newObj(v, path, errs)
	b := Boundary{
		FilesystemReadScopeSHA256:  o.sha256("filesystem_read_scope_sha256"),
		FilesystemWriteScopeSHA256: o.sha256("filesystem_write_scope_sha256"),
	}
	if g, ok := o.get("git", false); ok {
		b.Git = decodeGitBoundary(g, o.p("git"), errs)
	}
	b.Isolation = o.str("isolation")
	b.RiskAcceptanceSHA256 = o.optSHA256("risk_acceptance_sha256")
	o.done()
	return b
}
