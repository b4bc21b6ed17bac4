package statestore

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
)

func validApproval(t *testing.T) Approval {
	t.Helper()
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	data, err := canon.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	return Approval{
		Document:      data,
		PlanHash:      doc["initial_plan_hash"].(string),
		ApprovedAt:    "2026-05-01T12:00:00Z",
		ApproverID:    fixture.InitialUserID,
		ApproverLogin: "octocat",
	}
}

func TestApprovalRoundTrip(t *testing.T) {
	r, _ := openLocked(t)
	a := validApproval(t)
	if err := r.WriteApproval(a); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(r.Dir(), ApprovalInitialFile))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := canon.Canonicalize(raw); string(c) != string(raw) {
		t.Fatal("the record on disk is not canonical")
	}
	got, err := r.ReadApproval()
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Document) != string(a.Document) || got.PlanHash != a.PlanHash || got.ApprovedAt != a.ApprovedAt ||
		got.ApproverID != a.ApproverID || got.ApproverLogin != a.ApproverLogin {
		t.Fatalf("round trip changed the record: %+v", got)
	}
	// Identical re-write is fine; a different approval is not.
	if err := r.WriteApproval(a); err != nil {
		t.Fatalf("identical re-write: %v", err)
	}
	b := a
	b.ApprovedAt = "2026-05-01T12:00:01Z"
	if err := r.WriteApproval(b); !errors.Is(err, ErrApprovalExists) {
		t.Fatalf("different approval: %v", err)
	}
}

func TestApprovalValidate(t *testing.T) {
	base := validApproval(t)
	mutate := map[string]func(a *Approval){
		"uppercase hash": func(a *Approval) { a.PlanHash = strings.ToUpper(a.PlanHash) },
		"other hash":     func(a *Approval) { a.PlanHash = strings.Repeat("0", 64) },
		"short hash":     func(a *Approval) { a.PlanHash = a.PlanHash[:63] },
		"time form":      func(a *Approval) { a.ApprovedAt = "2026-05-01T12:00:00.5Z" },
		"zero approver":  func(a *Approval) { a.ApproverID = 0 },
		"empty login":    func(a *Approval) { a.ApproverLogin = " " },
		"indented doc":   func(a *Approval) { a.Document = append([]byte(" "), a.Document...) },
		"not an object":  func(a *Approval) { a.Document = []byte(`[]`) },
		"no manifest":    func(a *Approval) { a.Document = []byte(`{"initial_plan_hash":"` + a.PlanHash + `"}`) },
		"doc plan hash": func(a *Approval) {
			a.Document = []byte(strings.Replace(string(a.Document), `"initial_plan_hash":"`, `"initial_plan_hash":"0`, 1))
		},
		"edited manifest": func(a *Approval) {
			a.Document = []byte(strings.Replace(string(a.Document), `"mode":"approval-gated"`, `"mode":"autonomous"`, 1))
		},
		"invalid document": func(a *Approval) { a.Document = []byte(`{`) },
	}
	if err := base.Validate(); err != nil {
		t.Fatalf("valid approval refused: %v", err)
	}
	for name, m := range mutate {
		a := base
		a.Document = append(json.RawMessage(nil), base.Document...)
		m(&a)
		if err := a.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestApprovalWriteRequiresLockAndReadRefusesTampering(t *testing.T) {
	r, err := OpenPlan(t.TempDir(), testRunID)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteApproval(validApproval(t)); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("without lock: %v", err)
	}
	unlock, err := r.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if err := r.WriteApproval(validApproval(t)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.Dir(), ApprovalInitialFile)
	raw, _ := os.ReadFile(path)
	for name, edited := range map[string]string{
		"pretty":        strings.Replace(string(raw), `{"approved_at"`, `{ "approved_at"`, 1),
		"unknown field": strings.Replace(string(raw), `{"approved_at"`, `{"aaa":1,"approved_at"`, 1),
		"login":         strings.Replace(string(raw), `"approver_login":"octocat"`, `"approver_login":""`, 1),
	} {
		if edited == string(raw) {
			t.Fatalf("%s: edit did not apply", name)
		}
		if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadApproval(); err == nil {
			t.Errorf("%s: tampered record accepted", name)
		}
	}
}

func TestRecordPlanApprovalWritesUnderLock(t *testing.T) {
	root := t.TempDir()
	a := validApproval(t)
	runID := strings.Repeat("ab", 16)
	dir, err := RecordPlanApproval(context.Background(), root, runID, a)
	if err != nil {
		t.Fatal(err)
	}
	run, err := OpenPlan(root, runID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Dir() != dir {
		t.Fatalf("recorded in %s, run dir is %s", dir, run.Dir())
	}
	got, err := run.ReadApproval()
	if err != nil || got.PlanHash != a.PlanHash {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// A held lock makes a second recorder wait and then give up: nothing is
	// written behind another gh-prloop's back.
	unlock, err := run.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := RecordPlanApproval(ctx, root, runID, a); err == nil {
		t.Fatal("recording while another holder has the lock must fail")
	}
}

// coreRejectedApproval is an approval whose hash chain is intact (the
// document is canonical, plan_hash is its manifest's hash and
// initial_plan_hash agrees) but whose manifest core rejects.
func coreRejectedApproval(t *testing.T, edit func(man map[string]any)) Approval {
	t.Helper()
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	edit(doc["initial_manifest"].(map[string]any))
	fixture.RecomputeInitial(doc)
	data, err := canon.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	return Approval{Document: data, PlanHash: doc["initial_plan_hash"].(string),
		ApprovedAt: "2026-05-01T12:00:00Z", ApproverID: fixture.InitialUserID, ApproverLogin: "octocat"}
}

// A record read from the state directory is validated by core before use:
// re-sealing the hashes after an edit core rejects does not make it an
// approval. Writing it is refused the same way.
func TestReadApprovalRefusesADocumentCoreRejects(t *testing.T) {
	for name, c := range map[string]struct {
		edit func(man map[string]any)
		path string
	}{
		"unknown mode":   {func(m map[string]any) { m["mode"] = "yolo" }, "/initial_manifest/mode"},
		"bad run id":     {func(m map[string]any) { m["run_id"] = "NOT-A-RUN-ID" }, "/initial_manifest/run_id"},
		"unknown member": {func(m map[string]any) { m["execute_anything"] = true }, "/initial_manifest"},
	} {
		t.Run(name, func(t *testing.T) {
			a := coreRejectedApproval(t, c.edit)
			err := a.Validate()
			var inv *InvalidDocumentError
			if !errors.As(err, &inv) || len(inv.Problems) == 0 {
				t.Fatalf("Validate: %v; want an InvalidDocumentError with core's problems", err)
			}
			if !strings.Contains(err.Error(), c.path) {
				t.Errorf("the error does not name %s: %v", c.path, err)
			}

			r, unlock := openLocked(t)
			defer unlock()
			if err := r.WriteApproval(a); !errors.As(err, &inv) {
				t.Fatalf("WriteApproval: %v", err)
			}
			data, err := canon.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.Dir(), ApprovalInitialFile), data, 0o600); err != nil {
				t.Fatal(err)
			}
			if got, err := r.ReadApproval(); !errors.As(err, &inv) {
				t.Fatalf("ReadApproval returned %+v, %v; want core's refusal", got.PlanHash, err)
			}
		})
	}
}
