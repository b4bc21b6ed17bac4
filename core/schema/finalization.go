package schema

import "github.com/prloop/gh-prloop/core/problems"

// Gates are the four merge gates, each pass|fail|pending|unknown.
type Gates struct {
	Approvals        string `json:"approvals"`
	BranchProtection string `json:"branch_protection"`
	Checks           string `json:"checks"`
	Mergeability     string `json:"mergeability"`
}

// FinalizationManifest is the write plan that finishes a loop.
type FinalizationManifest struct {
	BaseBranch            string     `json:"base_branch"`
	BaseSHA               string     `json:"base_sha"`
	CurrentHeadSHA        string     `json:"current_head_sha"`
	EligibleThreads       []Thread   `json:"eligible_threads"`
	Gates                 Gates      `json:"gates"`
	HeadBranch            string     `json:"head_branch"`
	Kind                  string     `json:"kind"`
	NonCodexRootedThreads int64      `json:"non_codex_rooted_threads"`
	Operations            []string   `json:"operations"`
	PolicySchemaVersion   int64      `json:"policy_schema_version"`
	PRIsDraft             bool       `json:"pr_is_draft"`
	PRNumber              int64      `json:"pr_number"`
	RemoteName            string     `json:"remote_name"`
	Repository            string     `json:"repository"`
	RequestKey            string     `json:"request_key"`
	Responses             []Response `json:"responses"`
	RunID                 string     `json:"run_id"`
	Version               int64      `json:"version"`
}

var gateValues = []string{"pass", "fail", "pending", "unknown"}

// DecodeGates decodes the four gates exactly.
func DecodeGates(v any, path string, errs *problems.List) Gates {
	o := newObj(v, path, errs)
	g := Gates{
		Approvals:        o.enum("approvals", gateValues...),
		BranchProtection: o.enum("branch_protection", gateValues...),
		Checks:           o.enum("checks", gateValues...),
		Mergeability:     o.enum("mergeability", gateValues...),
	}
	o.done()
	return g
}

// DecodeFinalizationManifest decodes a finalization manifest exactly.
func DecodeFinalizationManifest(v any, path string, errs *problems.List) FinalizationManifest {
	o := newObj(v, path, errs)
	m := FinalizationManifest{
		BaseBranch:      o.str("base_branch"),
		BaseSHA:         o.sha1("base_sha"),
		CurrentHeadSHA:  o.sha1("current_head_sha"),
		EligibleThreads: decodeThreads(o, "eligible_threads"),
	}
	if g, ok := o.get("gates", false); ok {
		m.Gates = DecodeGates(g, o.p("gates"), errs)
	}
	m.HeadBranch = o.str("head_branch")
	m.Kind = o.enum("kind", "finalization")
	m.NonCodexRootedThreads = o.nonNeg("non_codex_rooted_threads")
	m.Operations = o.strings("operations")
	m.PolicySchemaVersion = o.exactInt("policy_schema_version", 1)
	m.PRIsDraft = o.boolean("pr_is_draft")
	m.PRNumber = o.id("pr_number")
	m.RemoteName = o.str("remote_name")
	m.Repository = o.str("repository")
	m.RequestKey = o.str("request_key")
	m.Responses = decodeResponses(o, "responses")
	m.RunID = o.runID("run_id")
	m.Version = o.exactInt("version", 1)
	o.done()
	return m
}
