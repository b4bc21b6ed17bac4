package evaluate

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
)

// ExpectedRemediationOperations is the one operation list a remediation plan
// may carry: run-validation only when there are commands.
func ExpectedRemediationOperations(commands []schema.Command) []string {
	ops := []string{policy.OpEditFiles}
	if len(commands) > 0 {
		ops = append(ops, policy.OpRunValidation)
	}
	return append(ops, policy.OpCommit, policy.OpPush, policy.OpReplyToCodexThreads,
		policy.OpRequestCodexReview, policy.OpUpdateAutomation)
}

// Remediation checks every binding of a remediation manifest (the seed's
// "Remediation manifest") to the recurring state s. mRaw is the manifest as
// parsed, or nil; when given it must be the same document as m. path is the
// manifest's JSON pointer, used as the prefix of every problem.
func Remediation(m schema.RemediationManifest, mRaw any, s schema.State, path string) problems.List {
	errs := problems.List{}
	at := func(key string) string { return problems.Join(path, key) }
	sameRaw(m, mRaw, schema.DecodeRemediationManifest, path, &errs)
	checkPlanHeader(m.Kind, "remediation", m.Version, m.PolicySchemaVersion, path, &errs)
	checkPlanIdentity(planIdentity{m.RunID, m.Repository, m.PRNumber, m.RemoteName, m.BaseBranch, m.HeadBranch,
		m.BaseSHA, m.CurrentHeadSHA, m.RequestKey}, s, path, &errs)
	if requestCompleted(s) {
		errs.Add(at("request_key"), problems.Inconsistent, "request %s is already completed; a round is fixed once", m.RequestKey)
	}

	sameThreads(m.ActionableThreads, s.ActionableCodexThreads, at("actionable_threads"), "the state's actionable_codex_threads", &errs)
	sameResponses(m.Responses, s.Responses, at("responses"), &errs)
	if v := readVerdict(s); len(s.ActionableCodexThreads) == 0 && !v.findings {
		errs.Add(path, problems.Inconsistent, "there is nothing to fix: no actionable Codex thread and no findings response")
	}

	if s.ExecutionBoundary == nil {
		errs.Add(at("execution"), problems.Mismatch, "the state has no execution boundary to bind")
	} else {
		sameAs(m.Execution, *s.ExecutionBoundary, at("execution"), problems.Mismatch, "the state's execution_boundary", &errs)
	}
	validate.CheckBoundary(m.Execution, at("execution"), &errs)

	validate.CheckPathSet(m.Paths, m.PathRecords, at("paths"), at("path_records"), &errs)
	validate.CheckCommands(m.Commands, at("commands"), &errs)
	validate.CheckOperations(m.Operations, ExpectedRemediationOperations(m.Commands), at("operations"), &errs)
	checkFixTemplate(m.ReviewRequestBodyTemplate, m.ReviewRequestBodyTemplateSHA256, s.RunID, int(s.FixRounds)+1, path, &errs)
	return errs
}

// checkFixTemplate: the shared one-placeholder rules, then the exact text of
// the fix round, then the digest of exactly those bytes.
func checkFixTemplate(tmpl, digest, runID string, round int, path string, errs *problems.List) {
	p := problems.Join(path, "review_request_body_template")
	before := errs.Count()
	validate.CheckReviewTemplate(tmpl, runID, round, p, errs)
	if want := policy.FixReviewTemplate(runID, round); errs.Count() == before && tmpl != want {
		errs.Add(p, problems.Template, "must be exactly %q", want)
	}
	if got := sha256Hex(tmpl); digest != got {
		errs.Add(problems.Join(path, "review_request_body_template_sha256"), problems.HashMismatch,
			"the SHA-256 of the template is %s", got)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// checkPlanHeader checks what the decoder also checks, because a plan built
// in code never went through the decoder.
func checkPlanHeader(kind, wantKind string, version, policyVersion int64, path string, errs *problems.List) {
	if kind != wantKind {
		errs.Add(problems.Join(path, "kind"), problems.InvalidValue, "must be %q, got %q", wantKind, kind)
	}
	if version != 1 {
		errs.Add(problems.Join(path, "version"), problems.Policy, "must be 1, got %d", version)
	}
	if policyVersion != policy.SchemaVersion {
		errs.Add(problems.Join(path, "policy_schema_version"), problems.Policy, "must be %d, got %d", policy.SchemaVersion, policyVersion)
	}
}

// planIdentity is what both recurring plans carry of the request checkpoint.
type planIdentity struct {
	runID, repository string
	prNumber          int64
	remote            string
	baseBranch        string
	headBranch        string
	baseSHA, headSHA  string
	requestKey        string
}

// checkPlanIdentity: a plan belongs to this run, repository, PR and pending
// request, and was made against the fresh remote, branches and tips.
func checkPlanIdentity(id planIdentity, s schema.State, path string, errs *problems.List) {
	at := func(key string) string { return problems.Join(path, key) }
	if id.runID != s.RunID {
		errs.Add(at("run_id"), problems.Mismatch, "must be the state's run_id %s", s.RunID)
	}
	if id.repository != s.Repository {
		errs.Add(at("repository"), problems.Mismatch, "must be the state's repository %q", s.Repository)
	}
	if id.prNumber != s.PR.Number {
		errs.Add(at("pr_number"), problems.Mismatch, "must be the state's pull request %d", s.PR.Number)
	}
	if s.RemoteName == nil || id.remote != *s.RemoteName {
		errs.Add(at("remote_name"), problems.Drift, "must be the validated remote of the state")
	}
	if id.baseBranch != s.BaseBranch {
		errs.Add(at("base_branch"), problems.Drift, "must be the checkpoint's base branch %q", s.BaseBranch)
	}
	if id.headBranch != s.HeadBranch {
		errs.Add(at("head_branch"), problems.Drift, "must be the checkpoint's head branch %q", s.HeadBranch)
	}
	if id.baseSHA != s.BaseSHA {
		errs.Add(at("base_sha"), problems.Drift, "must be the fresh base tip %s", s.BaseSHA)
	}
	if id.headSHA != s.CurrentHeadSHA || s.RequestHeadSHA == nil || id.headSHA != *s.RequestHeadSHA {
		errs.Add(at("current_head_sha"), problems.Drift, "must be the current and requested head %s", s.CurrentHeadSHA)
	}
	if want := requestKey(s); id.requestKey != want {
		errs.Add(at("request_key"), problems.Mismatch, "must be the pending request's key %q", want)
	}
}

// RemediationInput is what a remediation plan adds to the state: the fix's
// paths with their fresh records, and the validation commands in order.
type RemediationInput struct {
	Paths       []string
	PathRecords []schema.PathRecord
	Commands    []schema.Command
}

// BuildRemediation builds the remediation manifest for s and in. Everything
// but in is copied from the state, so the result passes Remediation whenever
// the state is consistent and in is well-formed.
func BuildRemediation(s schema.State, in RemediationInput) schema.RemediationManifest {
	round := int(s.FixRounds) + 1
	tmpl := policy.FixReviewTemplate(s.RunID, round)
	m := schema.RemediationManifest{
		ActionableThreads:               clone(s.ActionableCodexThreads),
		BaseBranch:                      s.BaseBranch,
		BaseSHA:                         s.BaseSHA,
		Commands:                        cloneCommands(in.Commands),
		CurrentHeadSHA:                  s.CurrentHeadSHA,
		HeadBranch:                      s.HeadBranch,
		Kind:                            "remediation",
		Paths:                           clone(in.Paths),
		PathRecords:                     clone(in.PathRecords),
		PolicySchemaVersion:             policy.SchemaVersion,
		PRNumber:                        s.PR.Number,
		Repository:                      s.Repository,
		RequestKey:                      requestKey(s),
		ReviewRequestBodyTemplate:       tmpl,
		ReviewRequestBodyTemplateSHA256: sha256Hex(tmpl),
		Responses:                       clone(s.Responses),
		RunID:                           s.RunID,
		Version:                         1,
	}
	m.Operations = ExpectedRemediationOperations(m.Commands)
	if s.RemoteName != nil {
		m.RemoteName = *s.RemoteName
	}
	if s.ExecutionBoundary != nil {
		m.Execution = cloneBoundary(*s.ExecutionBoundary)
	} else {
		m.Execution.Git.ActiveCleanFilters = []string{}
	}
	return m
}

// clone copies a slice and never returns nil, so a built manifest encodes
// empty lists as [] (the schema has no null lists).
func clone[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return slices.Clone(xs)
}

func cloneCommands(cs []schema.Command) []schema.Command {
	out := make([]schema.Command, len(cs))
	for i, c := range cs {
		out[i] = schema.Command{Argv: clone(c.Argv), DefinitionSHA256: c.DefinitionSHA256}
	}
	return out
}

func cloneBoundary(b schema.Boundary) schema.Boundary {
	b.Git.ActiveCleanFilters = clone(b.Git.ActiveCleanFilters)
	if b.RiskAcceptanceSHA256 != nil {
		r := *b.RiskAcceptanceSHA256
		b.RiskAcceptanceSHA256 = &r
	}
	return b
}
