package schema

import "github.com/prloop/gh-prloop/core/problems"

// InitialSnapshot is the fresh observation the initial plan is built from.
type InitialSnapshot struct {
	AuthenticatedUserID      int64        `json:"authenticated_user_id"`
	BaseBranch               string       `json:"base_branch"`
	BaseSHA                  string       `json:"base_sha"`
	Commands                 []Command    `json:"commands"`
	CommitRequired           bool         `json:"commit_required"`
	CreateBranchRequired     bool         `json:"create_branch_required"`
	CurrentHeadSHA           string       `json:"current_head_sha"`
	DiffSHA256               string       `json:"diff_sha256"`
	ExecutionBoundary        Boundary     `json:"execution_boundary"`
	ExistingPRBaseBranch     *string      `json:"existing_pr_base_branch"`
	ExistingPRHeadBranch     *string      `json:"existing_pr_head_branch"`
	ExistingPRHeadSHA        *string      `json:"existing_pr_head_sha"`
	ExistingPRNumber         *int64       `json:"existing_pr_number"`
	ExistingPRSameRepository *bool        `json:"existing_pr_same_repository"`
	HeadBranch               string       `json:"head_branch"`
	HeartbeatRRule           string       `json:"heartbeat_rrule"`
	Host                     string       `json:"host"`
	OpenPRsSHA256            string       `json:"open_prs_sha256"`
	Paths                    []string     `json:"paths"`
	PathRecords              []PathRecord `json:"path_records"`
	PolicySchemaVersion      int64        `json:"policy_schema_version"`
	PushRequired             bool         `json:"push_required"`
	RemoteName               string       `json:"remote_name"`
	RemoteRefsSHA256         string       `json:"remote_refs_sha256"`
	Repository               string       `json:"repository"`
	WorktreeStatusSHA256     string       `json:"worktree_status_sha256"`
}

// InitialManifest is the initial write plan; its canonical hash is the plan hash.
type InitialManifest struct {
	AutomationPromptTemplate        string   `json:"automation_prompt_template"`
	AutomationPromptTemplateSHA256  string   `json:"automation_prompt_template_sha256"`
	Kind                            string   `json:"kind"`
	Mode                            string   `json:"mode"`
	Operations                      []string `json:"operations"`
	PRBodySHA256                    string   `json:"pr_body_sha256"`
	PRTitleSHA256                   string   `json:"pr_title_sha256"`
	ReviewRequestBodyTemplate       string   `json:"review_request_body_template"`
	ReviewRequestBodyTemplateSHA256 string   `json:"review_request_body_template_sha256"`
	RunID                           string   `json:"run_id"`
	SnapshotSHA256                  string   `json:"snapshot_sha256"`
	Version                         int64    `json:"version"`
}

// InitialDocument is the outer document: exactly snapshot, manifest and plan hash.
type InitialDocument struct {
	InitialManifest InitialManifest `json:"initial_manifest"`
	InitialPlanHash string          `json:"initial_plan_hash"`
	InitialSnapshot InitialSnapshot `json:"initial_snapshot"`
}

// DecodeInitialSnapshot decodes exactly the seed's initial_snapshot.
func DecodeInitialSnapshot(v any, path string, errs *problems.List) InitialSnapshot {
	o := newObj(v, path, errs)
	s := InitialSnapshot{
		AuthenticatedUserID:  o.id("authenticated_user_id"),
		BaseBranch:           o.str("base_branch"),
		BaseSHA:              o.sha1("base_sha"),
		Commands:             decodeCommands(o, "commands"),
		CommitRequired:       o.boolean("commit_required"),
		CreateBranchRequired: o.boolean("create_branch_required"),
		CurrentHeadSHA:       o.sha1("current_head_sha"),
		DiffSHA256:           o.sha256("diff_sha256"),
	}
	if b, ok := o.get("execution_boundary", false); ok {
		s.ExecutionBoundary = DecodeBoundary(b, o.p("execution_boundary"), errs)
	}
	s.ExistingPRBaseBranch = o.optStr("existing_pr_base_branch")
	s.ExistingPRHeadBranch = o.optStr("existing_pr_head_branch")
	s.ExistingPRHeadSHA = o.optSHA1("existing_pr_head_sha")
	s.ExistingPRNumber = o.optID("existing_pr_number")
	s.ExistingPRSameRepository = o.optBool("existing_pr_same_repository")
	s.HeadBranch = o.str("head_branch")
	s.HeartbeatRRule = o.str("heartbeat_rrule")
	s.Host = o.str("host")
	s.OpenPRsSHA256 = o.sha256("open_prs_sha256")
	s.Paths = o.strings("paths")
	s.PathRecords = decodePathRecords(o, "path_records")
	s.PolicySchemaVersion = o.exactInt("policy_schema_version", 1)
	s.PushRequired = o.boolean("push_required")
	s.RemoteName = o.str("remote_name")
	s.RemoteRefsSHA256 = o.sha256("remote_refs_sha256")
	s.Repository = o.str("repository")
	s.WorktreeStatusSHA256 = o.sha256("worktree_status_sha256")
	o.done()
	return s
}

// DecodeInitialManifest decodes exactly the seed's initial_manifest.
func DecodeInitialManifest(v any, path string, errs *problems.List) InitialManifest {
	o := newObj(v, path, errs)
	m := InitialManifest{
		AutomationPromptTemplate:        o.str("automation_prompt_template"),
		AutomationPromptTemplateSHA256:  o.sha256("automation_prompt_template_sha256"),
		Kind:                            o.enum("kind", "initial"),
		Mode:                            o.enum("mode", "autonomous", "approval-gated"),
		Operations:                      o.strings("operations"),
		PRBodySHA256:                    o.sha256("pr_body_sha256"),
		PRTitleSHA256:                   o.sha256("pr_title_sha256"),
		ReviewRequestBodyTemplate:       o.str("review_request_body_template"),
		ReviewRequestBodyTemplateSHA256: o.sha256("review_request_body_template_sha256"),
		RunID:                           o.runID("run_id"),
		SnapshotSHA256:                  o.sha256("snapshot_sha256"),
		Version:                         o.exactInt("version", 1),
	}
	o.done()
	return m
}

// DecodeInitialDocument decodes the outer initial document exactly.
func DecodeInitialDocument(v any, path string, errs *problems.List) InitialDocument {
	o := newObj(v, path, errs)
	var d InitialDocument
	if m, ok := o.get("initial_manifest", false); ok {
		d.InitialManifest = DecodeInitialManifest(m, o.p("initial_manifest"), errs)
	}
	d.InitialPlanHash = o.sha256("initial_plan_hash")
	if s, ok := o.get("initial_snapshot", false); ok {
		d.InitialSnapshot = DecodeInitialSnapshot(s, o.p("initial_snapshot"), errs)
	}
	o.done()
	return d
}
