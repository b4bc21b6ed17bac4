// Package checkpoint holds a loop's canonical request checkpoint: what a
// wakeup cannot observe on GitHub or in the checkout and must remember
// between wakeups (the pending request, the rounds done, the run's fixer and
// validation commands, the claim, the current round's plans and approvals,
// the finalization record). It is one canonical JSON document in the run
// directory, written atomically under the run lock and validated field by
// field on every read, so that a tampered or torn file stops the loop with
// the JSON path of what is wrong instead of steering it.
package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// File is the checkpoint's name in the run directory.
const File = "checkpoint.json"

// Version is the only checkpoint version this build reads and writes.
const Version = 1

// Checkpoint is the run's canonical request checkpoint (PROTOCOL §5's
// "canonical request checkpoint", §7).
type Checkpoint struct {
	AnsweredThreads      []schema.Thread              `json:"answered_threads"`
	AutomationID         string                       `json:"automation_id"`
	AutomationKey        string                       `json:"automation_key"`
	BaseBranch           string                       `json:"base_branch"`
	Claim                *schema.Claim                `json:"claim"`
	CompletedRequestKeys []string                     `json:"completed_request_keys"`
	ExtraPaths           []string                     `json:"extra_paths"`
	FinalizationApproval *schema.Approval             `json:"finalization_approval"`
	FinalizationManifest *schema.FinalizationManifest `json:"finalization_manifest"`
	FinalizationPlanHash *string                      `json:"finalization_plan_hash"`
	FinalizedAt          *string                      `json:"finalized_at"`
	Fixer                []string                     `json:"fixer"`
	FixRounds            int64                        `json:"fix_rounds"`
	HeadBranch           string                       `json:"head_branch"`
	MergeGateReport      *schema.MergeGateReport      `json:"merge_gate_report"`
	Mode                 string                       `json:"mode"`
	PRNumber             int64                        `json:"pr_number"`
	RemediationApproval  *schema.Approval             `json:"remediation_approval"`
	RemediationManifest  *schema.RemediationManifest  `json:"remediation_manifest"`
	RemediationPlanHash  *string                      `json:"remediation_plan_hash"`
	RemoteName           string                       `json:"remote_name"`
	Repository           string                       `json:"repository"`
	RequestCommentID     int64                        `json:"request_comment_id"`
	RequestCreatedAt     string                       `json:"request_created_at"`
	RequestDeadline      string                       `json:"request_deadline"`
	RequestHeadSHA       string                       `json:"request_head_sha"`
	// RequestNodeID is the GraphQL node id of the request comment, so that
	// an idle wakeup reads its reactions in the one observation query.
	RequestNodeID string   `json:"request_node_id"`
	RunID         string   `json:"run_id"`
	Validate      []string `json:"validate"`
	Version       int      `json:"version"`
}

// RequestKey is the pending request's key (PROTOCOL §3).
func (c *Checkpoint) RequestKey() string {
	return policy.RequestKey(c.RequestCommentID, c.RequestHeadSHA)
}

// ClearPlans drops the current round's plans and approvals (a new round
// or a plan that no longer validates).
func (c *Checkpoint) ClearPlans() {
	c.RemediationManifest, c.RemediationPlanHash, c.RemediationApproval = nil, nil, nil
	c.FinalizationManifest, c.FinalizationPlanHash, c.FinalizationApproval = nil, nil, nil
}

// Marshal returns the canonical bytes of c after validating it.
func Marshal(c *Checkpoint) ([]byte, error) {
	c.normalize()
	data, err := canon.Marshal(c)
	if err != nil {
		return nil, err
	}
	// Validate what a reader will see, through the same path.
	if _, err := Decode(data); err != nil {
		return nil, err
	}
	return data, nil
}

func (c *Checkpoint) normalize() {
	for _, p := range []*[]string{&c.CompletedRequestKeys, &c.ExtraPaths, &c.Fixer, &c.Validate} {
		if *p == nil {
			*p = []string{}
		}
	}
	if c.AnsweredThreads == nil {
		c.AnsweredThreads = []schema.Thread{}
	}
}

// Store is the part of statestore.Run the checkpoint uses.
type Store interface {
	Read(name string) ([]byte, error)
	WriteAtomic(name string, data []byte) error
}

// ErrNone is returned by Read when the run has no checkpoint yet.
var ErrNone = errors.New("checkpoint: the run has no checkpoint yet")

// Read reads and validates the run's checkpoint.
func Read(s Store) (*Checkpoint, error) {
	data, err := s.Read(File)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNone
	}
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// Write validates c and writes it atomically (the caller holds the lock).
func Write(s Store, c *Checkpoint) error {
	data, err := Marshal(c)
	if err != nil {
		return err
	}
	return s.WriteAtomic(File, data)
}

// Error is a checkpoint that does not validate: every problem with its
// JSON path and stable code.
type Error struct{ Problems problems.List }

func (e *Error) Error() string { return File + " is invalid: " + e.Problems.Error() }

// Decode parses and validates a checkpoint document. The document must be
// canonical JSON with exactly the known fields; manifests go through core's
// exact decoders and each plan hash must be the canonical hash of its plan.
func Decode(data []byte) (*Checkpoint, error) {
	raw, err := canon.Parse(data)
	if err != nil {
		return nil, &Error{Problems: problems.List{{Path: "", Code: problems.Syntax, Message: err.Error()}}}
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, &Error{Problems: problems.List{{Path: "", Code: problems.WrongType, Message: "must be an object"}}}
	}
	errs := problems.List{}
	known := map[string]bool{}
	for _, k := range fieldNames {
		known[k] = true
	}
	for k := range obj {
		if !known[k] {
			errs.Add("/"+k, problems.UnknownField, "is not a checkpoint field")
		}
	}
	if !errs.Empty() {
		return nil, &Error{Problems: errs}
	}
	var c Checkpoint
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, &Error{Problems: problems.List{{Path: "", Code: problems.WrongType, Message: err.Error()}}}
	}
	c.validate(obj, &errs)
	if !errs.Empty() {
		return nil, &Error{Problems: errs}
	}
	return &c, nil
}

func (c *Checkpoint) validate(obj map[string]any, errs *problems.List) {
	for _, k := range fieldNames {
		if _, ok := obj[k]; !ok {
			errs.Add("/"+k, problems.MissingField, "is required")
		}
	}
	if !errs.Empty() {
		return
	}
	if c.Version != Version {
		errs.Add("/version", problems.Policy, "must be %d, got %d", Version, c.Version)
	}
	if !isHex(c.RunID, 32) {
		errs.Add("/run_id", problems.InvalidValue, "must be 32 lowercase hex characters")
	}
	if c.PRNumber <= 0 {
		errs.Add("/pr_number", problems.InvalidValue, "must be a positive integer")
	}
	if c.RequestCommentID <= 0 {
		errs.Add("/request_comment_id", problems.InvalidValue, "must be a positive integer")
	}
	if c.AutomationKey != policy.AutomationKey(c.Repository, c.PRNumber, c.RunID) {
		errs.Add("/automation_key", problems.Mismatch, "must be the key of %s #%d run %s", c.Repository, c.PRNumber, c.RunID)
	}
	if c.AutomationID == "" {
		errs.Add("/automation_id", problems.InvalidValue, "must not be empty")
	}
	if c.Mode != policy.ModeApprovalGated && c.Mode != policy.ModeAutonomous {
		errs.Add("/mode", problems.InvalidValue, "must be approval-gated or autonomous, got %q", c.Mode)
	}
	for k, v := range map[string]string{"remote_name": c.RemoteName, "base_branch": c.BaseBranch, "head_branch": c.HeadBranch} {
		if v == "" {
			errs.Add("/"+k, problems.InvalidValue, "must not be empty")
		}
	}
	if !isHex(c.RequestHeadSHA, 40) {
		errs.Add("/request_head_sha", problems.InvalidValue, "must be 40 lowercase hex characters")
	}
	created, err1 := schema.ParseTime(c.RequestCreatedAt)
	deadline, err2 := schema.ParseTime(c.RequestDeadline)
	switch {
	case err1 != nil:
		errs.Add("/request_created_at", problems.InvalidValue, "must be a timestamp: %v", err1)
	case err2 != nil || schema.FormatTime(deadline) != c.RequestDeadline:
		errs.Add("/request_deadline", problems.InvalidValue, "must be a timestamp in the product's form")
	case !deadline.Equal(created.Add(policy.RequestTimeoutSecs * 1e9)):
		errs.Add("/request_deadline", problems.Inconsistent, "must be request_created_at + %d s", policy.RequestTimeoutSecs)
	}
	if c.FixRounds < 0 || c.FixRounds > policy.MaxFixRounds {
		errs.Add("/fix_rounds", problems.InvalidValue, "must be between 0 and %d", policy.MaxFixRounds)
	}
	// One completed request per fix round, plus the pending request once
	// the finalization operations ran on it (PROTOCOL §5: the claimed
	// request is preserved as completed for the post-mutation plan).
	switch n := int64(len(c.CompletedRequestKeys)); {
	case n == c.FixRounds:
	case n == c.FixRounds+1 && c.CompletedRequestKeys[n-1] == c.RequestKey():
	default:
		errs.Add("/completed_request_keys", problems.Inconsistent, "one completed request per fix round (and then the pending one once finalized): %d keys for %d rounds", n, c.FixRounds)
	}
	for i, a := range c.Fixer {
		if a == "" || bytes.IndexByte([]byte(a), 0) >= 0 {
			errs.Add(fmt.Sprintf("/fixer/%d", i), problems.InvalidValue, "an argument must be non-empty and without NUL")
		}
	}
	c.validatePlans(obj, errs)
}

func (c *Checkpoint) validatePlans(obj map[string]any, errs *problems.List) {
	type plan struct {
		key, hashKey string
		present      bool
		hash         *string
		approval     *schema.Approval
		decode       func(v any, path string, errs *problems.List)
	}
	for _, p := range []plan{
		{"remediation_manifest", "remediation_plan_hash", c.RemediationManifest != nil, c.RemediationPlanHash, c.RemediationApproval,
			func(v any, path string, errs *problems.List) { schema.DecodeRemediationManifest(v, path, errs) }},
		{"finalization_manifest", "finalization_plan_hash", c.FinalizationManifest != nil, c.FinalizationPlanHash, c.FinalizationApproval,
			func(v any, path string, errs *problems.List) { schema.DecodeFinalizationManifest(v, path, errs) }},
	} {
		switch {
		case p.present != (p.hash != nil):
			errs.Add("/"+p.hashKey, problems.Inconsistent, "%s and %s are present together or not at all", p.key, p.hashKey)
		case p.present:
			p.decode(obj[p.key], "/"+p.key, errs)
			if h, err := canon.HashValue(obj[p.key]); err != nil || h != *p.hash {
				errs.Add("/"+p.hashKey, problems.HashMismatch, "must be the canonical hash of %s (%s)", p.key, h)
			}
		}
		if p.approval != nil && (!p.present || p.approval.PlanHash != *p.hash) {
			errs.Add("/"+p.key[:len(p.key)-len("manifest")]+"approval", problems.Mismatch, "an approval must name the stored plan's hash")
		}
	}
	if c.RemediationManifest != nil && c.FinalizationManifest != nil {
		errs.Add("/finalization_manifest", problems.Inconsistent, "at most one plan at a time")
	}
}

var fieldNames = []string{"answered_threads", "automation_id", "automation_key", "base_branch", "claim", "completed_request_keys",
	"extra_paths", "finalization_approval", "finalization_manifest", "finalization_plan_hash", "finalized_at", "fixer", "fix_rounds",
	"head_branch", "merge_gate_report", "mode", "pr_number", "remediation_approval", "remediation_manifest", "remediation_plan_hash",
	"remote_name", "repository", "request_comment_id", "request_created_at", "request_deadline", "request_head_sha", "request_node_id",
	"run_id", "validate", "version"}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
