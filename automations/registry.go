package automations

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/statestore"
)

// Errors a caller can act on.
var (
	ErrNotFound  = errors.New("automations: no automation has this key")
	ErrNotPaused = errors.New("automations: the automation is not PAUSED")
	ErrNoPrompt  = errors.New("automations: the automation has no prompt yet")
	ErrVerify    = errors.New("automations: the automation is not the one that was verified")
	ErrInvalid   = errors.New("automations: invalid automation")
)

// Registry is the registry file of one state root.
type Registry struct {
	file *statestore.Shared
	// mu serializes this value's writers: the file lock refuses a second
	// holder in one value rather than waiting, and goroutines sharing a
	// Registry should wait.
	mu sync.Mutex
}

// Open returns the registry under root (statestore.Root), which must be
// absolute. Nothing is read yet; a missing file is an empty registry.
func Open(root string) (*Registry, error) {
	f, err := statestore.OpenShared(root, FileName)
	if err != nil {
		return nil, err
	}
	return &Registry{file: f}, nil
}

// Path is the registry file's path, for messages.
func (r *Registry) Path() string { return r.file.Path() }

// SetLockTimeout bounds how long a write waits for another process.
func (r *Registry) SetLockTimeout(d time.Duration) { r.file.LockTimeout = d }

// read returns the validated records (sorted by key).
func (r *Registry) read() ([]Record, error) {
	data, err := r.file.Read()
	if errors.Is(err, fs.ErrNotExist) {
		return []Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("automations: %w", err)
	}
	return decode(r.Path(), data)
}

// List returns every automation, sorted by key. It takes no lock: the file
// is only ever replaced whole.
func (r *Registry) List(ctx context.Context) ([]Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.read()
}

// Get returns the automation with key, and whether there is one.
func (r *Registry) Get(ctx context.Context, key string) (Record, bool, error) {
	recs, err := r.List(ctx)
	if err != nil {
		return Record{}, false, err
	}
	if i, ok := find(recs, key); ok {
		return recs[i], true, nil
	}
	return Record{}, false, nil
}

// AsState returns the recurring state's `automations` entries for key
// (PROTOCOL §5): the one automation with that key, or none. Keys are unique
// in the registry, so core's "exactly one automation with the key and id"
// check sees precisely what is recorded.
func (r *Registry) AsState(key string) ([]schema.Automation, error) {
	recs, err := r.read()
	if err != nil {
		return nil, err
	}
	out := []schema.Automation{}
	for _, rec := range recs {
		if rec.Key == key {
			out = append(out, rec.Automation())
		}
	}
	return out, nil
}

// CreatePaused creates the PAUSED stub of key with an empty prompt and the
// BootstrapReason. It is idempotent by key: when an automation with key
// exists it is returned unchanged, whatever its state (the executor
// reconciling a crashed bootstrap finds its own stub).
func (r *Registry) CreatePaused(ctx context.Context, key, name, runID, rrule string, now time.Time) (Record, error) {
	return r.update(ctx, key, true, func(recs []Record, i int, found bool) ([]Record, Record, error) {
		if found {
			return recs, recs[i], nil
		}
		id, err := newID()
		if err != nil {
			return nil, Record{}, err
		}
		if name == "" {
			name = key
		}
		t := schema.FormatTime(now)
		rec := Record{
			ID: id, Key: key, Name: cleanText(name, MaxNameBytes), Prompt: "", PromptSHA256: canon.Hash(nil),
			RRule: rrule, Status: StatusPaused, RunID: runID, Reason: BootstrapReason, CreatedAt: t, UpdatedAt: t,
		}
		var errs problems.List
		rec.validate("", &errs)
		if !errs.Empty() {
			return nil, Record{}, fmt.Errorf("%w: %s", ErrInvalid, errs.Error())
		}
		recs = append(recs, rec)
		sort.Slice(recs, func(a, b int) bool { return recs[a].Key < recs[b].Key })
		return recs, rec, nil
	})
}

// SetPrompt gives a PAUSED automation its prompt (and prompt_sha256). An
// ACTIVE one is refused with ErrNotPaused: a running loop's prompt changes
// only through a pause, so the verification Activate makes always covers
// what runs. Setting the same prompt again changes nothing.
func (r *Registry) SetPrompt(ctx context.Context, key, prompt string, now time.Time) (Record, error) {
	return r.update(ctx, key, false, func(recs []Record, i int, _ bool) ([]Record, Record, error) {
		rec := recs[i]
		if rec.Prompt == prompt {
			return recs, rec, nil
		}
		if rec.Status != StatusPaused {
			return nil, Record{}, fmt.Errorf("%w: %s is %s; pause it before changing its prompt", ErrNotPaused, key, rec.Status)
		}
		rec.Prompt, rec.PromptSHA256 = prompt, canon.Hash([]byte(prompt))
		rec.UpdatedAt = later(rec.UpdatedAt, now)
		recs[i] = rec
		return recs, rec, nil
	})
}

// Activate makes a PAUSED automation ACTIVE after re-reading it, under the
// lock, and verifying that its prompt hashes to wantPromptSHA256 and its
// rule is wantRRule (the seed's "view and verify the exact prompt and
// schedule before activation"). An already ACTIVE automation that verifies
// is returned unchanged, so a reconciled bootstrap can call it again; one
// that does not verify is refused with ErrVerify and left as it is.
func (r *Registry) Activate(ctx context.Context, key, wantPromptSHA256, wantRRule string, now time.Time) (Record, error) {
	return r.update(ctx, key, false, func(recs []Record, i int, _ bool) ([]Record, Record, error) {
		rec := recs[i]
		switch {
		case rec.Prompt == "":
			return nil, Record{}, fmt.Errorf("%w: %s", ErrNoPrompt, key)
		case canon.Hash([]byte(rec.Prompt)) != wantPromptSHA256 || rec.PromptSHA256 != wantPromptSHA256:
			return nil, Record{}, fmt.Errorf("%w: %s: its prompt hashes to %s, the verified prompt to %s", ErrVerify, key, canon.Hash([]byte(rec.Prompt)), wantPromptSHA256)
		case rec.RRule != wantRRule:
			return nil, Record{}, fmt.Errorf("%w: %s: its rule is %q, the verified rule %q", ErrVerify, key, rec.RRule, wantRRule)
		case rec.Status == StatusActive:
			return recs, rec, nil
		}
		rec.Status, rec.Reason = StatusActive, ""
		rec.UpdatedAt = later(rec.UpdatedAt, now)
		recs[i] = rec
		return recs, rec, nil
	})
}

// DefaultPauseReason is the reason of a pause that gave none.
const DefaultPauseReason = "paused by the user"

// Pause makes an ACTIVE automation PAUSED with reason (control characters
// become spaces; at most MaxReasonBytes). A PAUSED one is returned
// unchanged: its reason already says why it stopped first.
func (r *Registry) Pause(ctx context.Context, key, reason string, now time.Time) (Record, error) {
	return r.update(ctx, key, false, func(recs []Record, i int, _ bool) ([]Record, Record, error) {
		rec := recs[i]
		if rec.Status == StatusPaused {
			return recs, rec, nil
		}
		if reason = cleanText(reason, MaxReasonBytes); reason == "" {
			reason = DefaultPauseReason
		}
		rec.Status, rec.Reason = StatusPaused, reason
		rec.UpdatedAt = later(rec.UpdatedAt, now)
		recs[i] = rec
		return recs, rec, nil
	})
}

// Resume makes a PAUSED automation ACTIVE again. A stub whose bootstrap
// never set a prompt is refused with ErrNoPrompt: only the executor's
// verified Activate may start it. An ACTIVE one is returned unchanged.
func (r *Registry) Resume(ctx context.Context, key string, now time.Time) (Record, error) {
	return r.update(ctx, key, false, func(recs []Record, i int, _ bool) ([]Record, Record, error) {
		rec := recs[i]
		if rec.Status == StatusActive {
			return recs, rec, nil
		}
		if rec.Prompt == "" {
			return nil, Record{}, fmt.Errorf("%w: %s is a bootstrap stub; finish its run with `gh-prloop apply`", ErrNoPrompt, key)
		}
		rec.Status, rec.Reason = StatusActive, ""
		rec.UpdatedAt = later(rec.UpdatedAt, now)
		recs[i] = rec
		return recs, rec, nil
	})
}

// Delete removes the automation with key; deleting one that does not exist
// succeeds (a retried finalization).
func (r *Registry) Delete(ctx context.Context, key string) error {
	_, err := r.update(ctx, key, true, func(recs []Record, i int, found bool) ([]Record, Record, error) {
		if !found {
			return recs, Record{}, nil
		}
		return append(recs[:i:i], recs[i+1:]...), Record{}, nil
	})
	return err
}

// update runs fn on the validated records under the lock and writes the
// result when it differs. With missingOK false, a missing key is
// ErrNotFound before fn runs. The new file is validated before it is
// written: this package never writes a registry it would refuse to read.
func (r *Registry) update(ctx context.Context, key string, missingOK bool, fn func(recs []Record, i int, found bool) ([]Record, Record, error)) (Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	unlock, err := r.file.Lock(ctx)
	if err != nil {
		return Record{}, fmt.Errorf("automations: %w", err)
	}
	defer unlock()
	recs, err := r.read()
	if err != nil {
		return Record{}, err
	}
	i, found := find(recs, key)
	if !found && !missingOK {
		return Record{}, fmt.Errorf("%w: %q", ErrNotFound, key)
	}
	before, err := encode(recs)
	if err != nil {
		return Record{}, err
	}
	next, rec, err := fn(recs, i, found)
	if err != nil {
		return Record{}, err
	}
	data, err := encode(next)
	if err != nil {
		return Record{}, fmt.Errorf("automations: encode: %w", err)
	}
	if string(data) == string(before) {
		return rec, nil
	}
	if _, err := decode(r.Path(), data); err != nil {
		var ce *CorruptError
		if errors.As(err, &ce) {
			return Record{}, fmt.Errorf("automations: refusing to write an invalid record: %s", ce.Problems.Error())
		}
		return Record{}, err
	}
	if err := r.file.WriteAtomic(data); err != nil {
		return Record{}, fmt.Errorf("automations: %w", err)
	}
	return rec, nil
}

// find returns the index of key in the sorted recs.
func find(recs []Record, key string) (int, bool) {
	i := sort.Search(len(recs), func(i int) bool { return recs[i].Key >= key })
	return i, i < len(recs) && recs[i].Key == key
}

// later is now in the product's form, or prev when the clock went back:
// updated_at never moves backwards.
func later(prev string, now time.Time) string {
	if t := schema.FormatTime(now); t > prev {
		return t
	}
	return prev
}
