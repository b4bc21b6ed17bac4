// Package journal is a run's operation journal: one record per operation of
// an approved plan, written atomically in the run's state directory under
// the run lock. A record is first a reservation (what the operation is
// about to do, written BEFORE its side effect) and then carries a receipt
// (what was observed after it). A reservation without a receipt means a
// crash or an unknown delivery: the executor must reconcile it by observing
// the world, never by repeating the side effect blindly.
//
// Records are canonical JSON and are validated on every read; anything
// unexpected (a foreign plan hash, a record out of order, an unknown field,
// bytes that are not canonical) is refused, so a tampered or torn journal
// stops the executor instead of steering it.
package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/statestore"
)

// Version is the record format version.
const Version = 1

// Entry is one operation's record.
type Entry struct {
	Index       int               `json:"index"`
	Intent      map[string]string `json:"intent"`
	Op          string            `json:"op"`
	Phase       string            `json:"phase"` // the plan's kind and round, e.g. "initial"
	PlanHash    string            `json:"plan_hash"`
	Receipt     map[string]string `json:"receipt"`      // nil until the operation is receipted
	ReceiptedAt *string           `json:"receipted_at"` // set together with Receipt
	ReservedAt  string            `json:"reserved_at"`
	Version     int               `json:"version"`
}

// Done reports whether the operation has its receipt.
func (e *Entry) Done() bool { return e != nil && e.Receipt != nil }

// Store is the part of statestore.Run the journal uses.
type Store interface {
	Read(name string) ([]byte, error)
	WriteAtomic(name string, data []byte) error
}

var _ Store = (*statestore.Run)(nil)

// Journal is the journal of one plan (one phase) in one run directory.
type Journal struct {
	store    Store
	phase    string
	planHash string
	ops      []string
	now      func() time.Time
}

var phaseRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// New returns the journal of the plan planHash whose operations are ops, in
// order. phase names the plan ("initial", "remediation-1", …) and prefixes
// every record name, so later plans of the same run never collide.
func New(store Store, phase, planHash string, ops []string, now func() time.Time) (*Journal, error) {
	if !phaseRE.MatchString(phase) {
		return nil, fmt.Errorf("journal: invalid phase %q", phase)
	}
	if !isHex64(planHash) {
		return nil, errors.New("journal: plan hash is not 64 lowercase hex characters")
	}
	if len(ops) == 0 || len(ops) > 99 {
		return nil, errors.New("journal: a plan has between 1 and 99 operations")
	}
	for _, op := range ops {
		if !phaseRE.MatchString(op) {
			return nil, fmt.Errorf("journal: invalid operation name %q", op)
		}
	}
	if now == nil {
		now = time.Now
	}
	return &Journal{store: store, phase: phase, planHash: planHash, ops: append([]string(nil), ops...), now: now}, nil
}

// Name is the record name of operation i: "<phase>-<NN>-<op>.json".
func (j *Journal) Name(i int) string { return fmt.Sprintf("%s-%02d-%s.json", j.phase, i, j.ops[i]) }

// Ops are the plan's operations in order.
func (j *Journal) Ops() []string { return append([]string(nil), j.ops...) }

// Load reads every record. entries[i] is nil when operation i was never
// reserved. A reservation after an operation without a receipt is refused:
// the executor reserves strictly in order and only after the previous
// receipt, so such a journal was not written by it.
func (j *Journal) Load() ([]*Entry, error) {
	out := make([]*Entry, len(j.ops))
	gap := -1
	for i := range j.ops {
		e, err := j.read(i)
		if err != nil {
			return nil, err
		}
		out[i] = e
		if e != nil && gap >= 0 {
			return nil, fmt.Errorf("journal: %s is reserved although operation %d (%s) before it has no receipt", j.Name(i), gap, j.ops[gap])
		}
		if !e.Done() && gap < 0 {
			gap = i
		}
	}
	return out, nil
}

func (j *Journal) read(i int) (*Entry, error) {
	name := j.Name(i)
	data, err := j.store.Read(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("journal: %s: %w", name, err)
	}
	switch {
	case e.Index != i:
		return nil, fmt.Errorf("journal: %s: index is %d, want %d", name, e.Index, i)
	case e.Op != j.ops[i]:
		return nil, fmt.Errorf("journal: %s: op is %q, want %q", name, e.Op, j.ops[i])
	case e.Phase != j.phase:
		return nil, fmt.Errorf("journal: %s: phase is %q, want %q", name, e.Phase, j.phase)
	case e.PlanHash != j.planHash:
		return nil, fmt.Errorf("journal: %s: belongs to plan %s, not the approved plan %s", name, e.PlanHash, j.planHash)
	}
	return e, nil
}

// Decode parses and validates one record: canonical bytes, exactly the
// known fields, version 1, product timestamps, and a receipt exactly when
// receipted_at is set.
func Decode(data []byte) (*Entry, error) {
	c, err := canon.Canonicalize(data)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(c, data) {
		return nil, errors.New("not in canonical form")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	want := []string{"index", "intent", "op", "phase", "plan_hash", "receipt", "receipted_at", "reserved_at", "version"}
	got := make([]string, 0, len(raw))
	for k := range raw {
		got = append(got, k)
	}
	sort.Strings(got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return nil, fmt.Errorf("fields are %v, want exactly %v", got, want)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e Entry
	if err := dec.Decode(&e); err != nil {
		return nil, err
	}
	switch {
	case e.Version != Version:
		return nil, fmt.Errorf("version is %d, want %d", e.Version, Version)
	case e.Index < 0:
		return nil, errors.New("index is negative")
	case !isHex64(e.PlanHash):
		return nil, errors.New("plan_hash is not 64 lowercase hex characters")
	case !schema.IsProductTime(e.ReservedAt):
		return nil, fmt.Errorf("reserved_at %q is not a product timestamp", e.ReservedAt)
	case e.Intent == nil:
		return nil, errors.New("intent is null")
	case (e.Receipt == nil) != (e.ReceiptedAt == nil):
		return nil, errors.New("receipt and receipted_at must be set together")
	case e.ReceiptedAt != nil && !schema.IsProductTime(*e.ReceiptedAt):
		return nil, fmt.Errorf("receipted_at %q is not a product timestamp", *e.ReceiptedAt)
	}
	return &e, nil
}

// Reserve records that operation i is about to run with intent. Reserving
// again with the same intent returns the existing reservation (a resumed
// run); a different intent, a receipted operation, or a previous operation
// without a receipt is refused.
func (j *Journal) Reserve(i int, intent map[string]string) (*Entry, error) {
	entries, err := j.Load()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(j.ops) {
		return nil, fmt.Errorf("journal: no operation %d", i)
	}
	for k := 0; k < i; k++ {
		if !entries[k].Done() {
			return nil, fmt.Errorf("journal: cannot reserve %s before %s has its receipt", j.ops[i], j.ops[k])
		}
	}
	if intent == nil {
		intent = map[string]string{}
	}
	if e := entries[i]; e != nil {
		if e.Done() {
			return nil, fmt.Errorf("journal: %s already has its receipt", j.ops[i])
		}
		if !sameMap(e.Intent, intent) {
			return nil, fmt.Errorf("journal: %s is reserved with a different intent", j.ops[i])
		}
		return e, nil
	}
	e := &Entry{Index: i, Intent: intent, Op: j.ops[i], Phase: j.phase, PlanHash: j.planHash, ReservedAt: schema.FormatTime(j.now()), Version: Version}
	return e, j.write(e)
}

// Complete records the receipt of reserved operation i.
func (j *Journal) Complete(i int, receipt map[string]string) (*Entry, error) {
	if i < 0 || i >= len(j.ops) {
		return nil, fmt.Errorf("journal: no operation %d", i)
	}
	e, err := j.read(i)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("journal: %s has no reservation; a receipt without one is never written", j.ops[i])
	}
	if e.Done() {
		if sameMap(e.Receipt, receipt) {
			return e, nil
		}
		return nil, fmt.Errorf("journal: %s already has a different receipt", j.ops[i])
	}
	if receipt == nil {
		receipt = map[string]string{}
	}
	at := schema.FormatTime(j.now())
	e.Receipt, e.ReceiptedAt = receipt, &at
	return e, j.write(e)
}

func (j *Journal) write(e *Entry) error {
	data, err := canon.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: encode %s: %w", e.Op, err)
	}
	return j.store.WriteAtomic(j.Name(e.Index), data)
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
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
