package statestore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
)

// ApprovalInitialFile is the record of the human's approval of the initial
// plan.
const ApprovalInitialFile = "approval-initial.json"

// ErrApprovalExists refuses to replace a recorded approval with a different
// one: a run id is fresh per plan, so a second, different approval of the
// same run means something other than this plan is being approved.
var ErrApprovalExists = errors.New("statestore: a different approval is already recorded for this run")

// Approval binds the human's approval to the exact document they saw.
type Approval struct {
	// Document is the initial document's canonical bytes, exactly as
	// hashed; it is stored so that the executor acts on what was approved,
	// not on a rebuild.
	Document      json.RawMessage `json:"document"`
	PlanHash      string          `json:"plan_hash"`
	ApprovedAt    string          `json:"approved_at"` // product time form (schema.FormatTime)
	ApproverID    int64           `json:"approver_id"`
	ApproverLogin string          `json:"approver_login"`
}

// Validate checks that the record is self-consistent: the document is
// canonical, its initial_manifest hashes to PlanHash, and its
// initial_plan_hash says the same; the time is in the product's form and
// the approver is a real account. Then the document must pass core's own
// validation of an initial document (validate.Initial), exactly as `plan`
// and `evaluate --initial` apply it: a record whose hash chain is intact but
// whose manifest core rejects (written by another tool, an older version or
// a hand edit re-sealed with new hashes) is not an approval of anything the
// executor may act on.
func (a Approval) Validate() error {
	if !isHex64(a.PlanHash) {
		return errors.New("statestore: approval plan_hash is not 64 lowercase hex characters")
	}
	if !schema.IsProductTime(a.ApprovedAt) {
		return fmt.Errorf("statestore: approval approved_at %q is not in the form 2006-01-02T15:04:05Z", a.ApprovedAt)
	}
	if a.ApproverID <= 0 {
		return errors.New("statestore: approval approver_id must be positive")
	}
	if strings.TrimSpace(a.ApproverLogin) == "" {
		return errors.New("statestore: approval approver_login is empty")
	}
	canonical, err := canon.Canonicalize(a.Document)
	if err != nil {
		return fmt.Errorf("statestore: approval document: %w", err)
	}
	if !bytes.Equal(canonical, a.Document) {
		return errors.New("statestore: approval document is not in canonical form")
	}
	v, err := canon.Parse(a.Document)
	if err != nil {
		return fmt.Errorf("statestore: approval document: %w", err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return errors.New("statestore: approval document is not an object")
	}
	man, ok := doc["initial_manifest"]
	if !ok {
		return errors.New("statestore: approval document has no initial_manifest")
	}
	h, err := canon.HashValue(man)
	if err != nil {
		return fmt.Errorf("statestore: approval document: %w", err)
	}
	if h != a.PlanHash {
		return fmt.Errorf("statestore: approval plan_hash %s is not the hash of the document's initial_manifest (%s)", a.PlanHash, h)
	}
	if doc["initial_plan_hash"] != a.PlanHash {
		return errors.New("statestore: approval document's initial_plan_hash differs from plan_hash")
	}
	res, probs := validate.Initial(v)
	if !probs.Empty() {
		return &InvalidDocumentError{File: ApprovalInitialFile, Problems: probs}
	}
	if res.PlanHash != a.PlanHash {
		return fmt.Errorf("statestore: approval plan_hash %s is not the plan hash core computes (%s)", a.PlanHash, res.PlanHash)
	}
	return nil
}

// InvalidDocumentError is a document from the state directory that core
// rejects. Problems carries core's findings (JSON path, stable code,
// message), the same list `evaluate` would print.
type InvalidDocumentError struct {
	File     string
	Problems problems.List
}

func (e *InvalidDocumentError) Error() string {
	const shown = 5
	list := e.Problems
	more := ""
	if len(list) > shown {
		more = fmt.Sprintf("; and %d more", len(list)-shown)
		list = list[:shown]
	}
	return fmt.Sprintf("statestore: %s: the recorded document is not a valid initial document: %s%s", e.File, list.Error(), more)
}

// WriteApproval validates a and records it atomically as canonical JSON.
// Writing the identical record again succeeds (a retried command); a
// different one is refused with ErrApprovalExists. The lock must be held.
func (r *Run) WriteApproval(a Approval) error {
	if err := a.Validate(); err != nil {
		return err
	}
	data, err := canon.Marshal(a)
	if err != nil {
		return fmt.Errorf("statestore: encode approval: %w", err)
	}
	r.mu.Lock()
	locked := r.held != nil
	r.mu.Unlock()
	if !locked {
		return ErrNotLocked
	}
	old, err := r.Read(ApprovalInitialFile)
	switch {
	case err == nil:
		if bytes.Equal(old, data) {
			return nil
		}
		return ErrApprovalExists
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return r.WriteAtomic(ApprovalInitialFile, data)
}

// ReadApproval reads and re-validates the recorded approval; a record that
// was edited by hand (not canonical, unknown fields, a document that no
// longer hashes to its plan hash) is refused.
func (r *Run) ReadApproval() (Approval, error) {
	data, err := r.Read(ApprovalInitialFile)
	if err != nil {
		return Approval{}, err
	}
	canonical, err := canon.Canonicalize(data)
	if err != nil {
		return Approval{}, fmt.Errorf("statestore: %s: %w", ApprovalInitialFile, err)
	}
	if !bytes.Equal(canonical, data) {
		return Approval{}, fmt.Errorf("statestore: %s is not in canonical form", ApprovalInitialFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var a Approval
	if err := dec.Decode(&a); err != nil {
		return Approval{}, fmt.Errorf("statestore: %s: %w", ApprovalInitialFile, err)
	}
	if err := a.Validate(); err != nil {
		return Approval{}, err
	}
	return a, nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// RecordPlanApproval writes the approval of a plan that has no automation key
// yet into plan/<run_id> under root, holding the run's lock for the write, and
// returns the run directory.
func RecordPlanApproval(ctx context.Context, root, runID string, a Approval) (string, error) {
	run, err := OpenPlan(root, runID)
	if err != nil {
		return "", err
	}
	unlock, err := run.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := run.WriteApproval(a); err != nil {
		return "", err
	}
	return run.Dir(), nil
}
