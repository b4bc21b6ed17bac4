package schema

import "github.com/prloop/gh-prloop/core/problems"

// RemediationManifest is the write plan of one fix round.
type RemediationManifest struct {
	ActionableThreads               []Thread     `json:"actionable_threads"`
	BaseBranch                      string       `json:"base_branch"`
	BaseSHA                         string       `json:"base_sha"`
	Commands                        []Command    `json:"commands"`
	CurrentHeadSHA                  string       `json:"current_head_sha"`
	Execution                       Boundary     `json:"execution"`
	HeadBranch                      string       `json:"head_branch"`
	Kind                            string       `json:"kind"`
	Operations                      []string     `json:"operations"`
	Paths                           []string     `json:"paths"`
	PathRecords                     []PathRecord `json:"path_records"`
	PolicySchemaVersion             int64        `json:"policy_schema_version"`
	PRNumber                        int64        `json:"pr_number"`
	RemoteName                      string       `json:"remote_name"`
	Repository                      string       `json:"repository"`
	RequestKey                      string       `json:"request_key"`
	ReviewRequestBodyTemplate       string       `json:"review_request_body_template"`
	ReviewRequestBodyTemplateSHA256 string       `json:"review_request_body_template_sha256"`
	Responses                       []Response   `json:"responses"`
	RunID                           string       `json:"run_id"`
	Version                         int64        `json:"version"`
}

// DecodeRemediationManifest decodes a remediation manifest exactly.
func DecodeRemediationManifest(v any, path string, errs *problems.List) RemediationManifest {
	o := newObj(v, path, errs)
	m := RemediationManifest{
		ActionableThreads: decodeThreads(o, "actionable_threads"),
		BaseBranch:        o.str("base_branch"),
		BaseSHA:           o.sha1("base_sha"),
		Commands:          decodeCommands(o, "commands"),
		CurrentHeadSHA:    o.sha1("current_head_sha"),
	}
	if b, ok := o.get("execution", false); ok {
		m.Execution = DecodeBoundary(b, o.p("execution"), errs)
	}
	m.HeadBranch = o.str("head_branch")
	m.Kind = o.enum("kind", "remediation")
	m.Operations = o.strings("operations")
	m.Paths = o.strings("paths")
	m.PathRecords = decodePathRecords(o, "path_records")
	m.PolicySchemaVersion = o.exactInt("policy_schema_version", 1)
	m.PRNumber = o.id("pr_number")
	m.RemoteName = o.str("remote_name")
	m.Repository = o.str("repository")
	m.RequestKey = o.str("request_key")
	m.ReviewRequestBodyTemplate = o.str("review_request_body_template")
	m.ReviewRequestBodyTemplateSHA256 = o.sha256("review_request_body_template_sha256")
	m.Responses = decodeResponses(o, "responses")
	m.RunID = o.runID("run_id")
	m.Version = o.exactInt("version", 1)
	o.done()
	return m
}
