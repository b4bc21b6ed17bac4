package automations

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
)

func TestLifecycle(t *testing.T) {
	r, _ := openTemp(t)
	ctx := t.Context()
	key := testKey(testRunID)

	stub, err := r.CreatePaused(ctx, key, "octo-org/hello-world#42", testRunID, policy.HeartbeatRRule, t0)
	if err != nil {
		t.Fatal(err)
	}
	if stub.Status != StatusPaused || stub.Reason != BootstrapReason || stub.Prompt != "" ||
		stub.PromptSHA256 != canon.Hash(nil) || !validID(stub.ID) || stub.CreatedAt != "2026-03-01T09:00:00Z" || stub.RunID != testRunID {
		t.Fatalf("stub: %+v", stub)
	}
	got, ok, err := r.Get(ctx, key)
	if err != nil || !ok || got != stub {
		t.Fatalf("get: %+v %v %v", got, ok, err)
	}

	prompt := "Continue …\nLoop key: " + key
	withPrompt, err := r.SetPrompt(ctx, key, prompt, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if withPrompt.PromptSHA256 != canon.Hash([]byte(prompt)) || withPrompt.Status != StatusPaused || withPrompt.UpdatedAt != "2026-03-01T09:01:00Z" {
		t.Fatalf("after SetPrompt: %+v", withPrompt)
	}
	active, err := r.Activate(ctx, key, canon.Hash([]byte(prompt)), policy.HeartbeatRRule, t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if active.Status != StatusActive || active.Reason != "" || active.ID != stub.ID {
		t.Fatalf("after Activate: %+v", active)
	}
	paused, err := r.Pause(ctx, key, "halt: request-timeout\n\x1b[31mred", t0.Add(3*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if paused.Status != StatusPaused || paused.Reason != "halt: request-timeout [31mred" {
		t.Fatalf("after Pause: %+v", paused)
	}
	resumed, err := r.Resume(ctx, key, t0.Add(4*time.Minute))
	if err != nil || resumed.Status != StatusActive || resumed.Reason != "" {
		t.Fatalf("after Resume: %+v %v", resumed, err)
	}
	if err := r.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := r.Get(ctx, key); ok || err != nil {
		t.Fatalf("after Delete: %v %v", ok, err)
	}
	if err := r.Delete(ctx, key); err != nil {
		t.Fatalf("second Delete must succeed: %v", err)
	}
}

// Every mutation that finds nothing to change returns the record as it is
// and leaves the file byte for byte; a retried step never rewrites history.
func TestIdempotentMutationsLeaveTheFile(t *testing.T) {
	r, _ := openTemp(t)
	ctx := t.Context()
	key := testKey(testRunID)
	first := stubWithPrompt(t, r, testRunID, "p")
	before := fileBytes(t, r)

	again, err := r.CreatePaused(ctx, key, "other name", testRunID, "FREQ=HOURLY", t0.Add(time.Hour))
	if err != nil || again != first {
		t.Fatalf("CreatePaused of an existing key must return it unchanged: %+v %v", again, err)
	}
	if _, err := r.SetPrompt(ctx, key, "p", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fileBytes(t, r), before) {
		t.Fatal("idempotent calls rewrote the file")
	}
	a1, err := r.Activate(ctx, key, canon.Hash([]byte("p")), policy.HeartbeatRRule, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	mid := fileBytes(t, r)
	a2, err := r.Activate(ctx, key, canon.Hash([]byte("p")), policy.HeartbeatRRule, t0.Add(2*time.Hour))
	if err != nil || a2 != a1 || !bytes.Equal(fileBytes(t, r), mid) {
		t.Fatalf("second Activate: %+v %v", a2, err)
	}
	if _, err := r.Resume(ctx, key, t0.Add(3*time.Hour)); err != nil || !bytes.Equal(fileBytes(t, r), mid) {
		t.Fatalf("Resume of an ACTIVE automation changed it: %v", err)
	}
	p1, _ := r.Pause(ctx, key, "first", t0.Add(4*time.Hour))
	p2, err := r.Pause(ctx, key, "second", t0.Add(5*time.Hour))
	if err != nil || p2 != p1 || p2.Reason != "first" {
		t.Fatalf("Pause of a PAUSED automation must keep why it stopped first: %+v %v", p2, err)
	}
}

func TestActivateVerifiesPromptAndRule(t *testing.T) {
	r, _ := openTemp(t)
	ctx := t.Context()
	key := testKey(testRunID)

	if _, err := r.CreatePaused(ctx, key, "n", testRunID, policy.HeartbeatRRule, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Activate(ctx, key, canon.Hash(nil), policy.HeartbeatRRule, t0); !errors.Is(err, ErrNoPrompt) {
		t.Fatalf("a stub without a prompt activated: %v", err)
	}
	rec, _ := r.SetPrompt(ctx, key, "the prompt", t0)
	before := fileBytes(t, r)
	if _, err := r.Activate(ctx, key, canon.Hash([]byte("another prompt")), policy.HeartbeatRRule, t0); !errors.Is(err, ErrVerify) {
		t.Fatalf("wrong prompt hash: %v", err)
	}
	if _, err := r.Activate(ctx, key, rec.PromptSHA256, "FREQ=MINUTELY;INTERVAL=5", t0); !errors.Is(err, ErrVerify) {
		t.Fatalf("wrong rule: %v", err)
	}
	if !bytes.Equal(fileBytes(t, r), before) {
		t.Fatal("a refused Activate changed the file")
	}
	if _, err := r.Activate(ctx, "github-codex-pr-loop/a/b/pull/1/run/"+testRunID2, rec.PromptSHA256, policy.HeartbeatRRule, t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing key: %v", err)
	}
}

func TestSetPromptRefusedWhileActive(t *testing.T) {
	r, _ := openTemp(t)
	key := testKey(testRunID)
	rec := stubWithPrompt(t, r, testRunID, "p")
	if _, err := r.Activate(t.Context(), key, rec.PromptSHA256, policy.HeartbeatRRule, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.SetPrompt(t.Context(), key, "changed", t0); !errors.Is(err, ErrNotPaused) {
		t.Fatalf("SetPrompt on ACTIVE: %v", err)
	}
}

func TestResumeRefusesBootstrapStub(t *testing.T) {
	r, _ := openTemp(t)
	key := testKey(testRunID)
	if _, err := r.CreatePaused(t.Context(), key, "n", testRunID, policy.HeartbeatRRule, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resume(t.Context(), key, t0); !errors.Is(err, ErrNoPrompt) {
		t.Fatalf("Resume of a stub: %v", err)
	}
}

func TestCreatePausedValidatesInput(t *testing.T) {
	r, _ := openTemp(t)
	cases := map[string]struct{ key, name, runID, rrule string }{
		"key of another run":  {testKey(testRunID2), "n", testRunID, policy.HeartbeatRRule},
		"not a loop key":      {"some/key", "n", testRunID, policy.HeartbeatRRule},
		"uppercase repo":      {"github-codex-pr-loop/Octo/x/pull/1/run/" + testRunID, "n", testRunID, policy.HeartbeatRRule},
		"pr number zero":      {"github-codex-pr-loop/o/x/pull/0/run/" + testRunID, "n", testRunID, policy.HeartbeatRRule},
		"bad run id":          {testKey("XYZ"), "n", "XYZ", policy.HeartbeatRRule},
		"not an rrule":        {testKey(testRunID), "n", testRunID, "every 2 minutes"},
		"rrule with spaces":   {testKey(testRunID), "n", testRunID, "FREQ=MINUTELY; INTERVAL=2"},
		"empty rrule":         {testKey(testRunID), "n", testRunID, ""},
		"dot-dot repo":        {"github-codex-pr-loop/../x/pull/1/run/" + testRunID, "n", testRunID, policy.HeartbeatRRule},
		"trailing slash":      {testKey(testRunID) + "/", "n", testRunID, policy.HeartbeatRRule},
		"leading zero number": {"github-codex-pr-loop/o/x/pull/01/run/" + testRunID, "n", testRunID, policy.HeartbeatRRule},
	}
	for name, c := range cases {
		if _, err := r.CreatePaused(t.Context(), c.key, c.name, c.runID, c.rrule, t0); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if recs, err := r.List(t.Context()); err != nil || len(recs) != 0 {
		t.Fatalf("refused creations left records: %v %v", recs, err)
	}
	// A name is for people: control and formatting characters are cleaned, an empty one is the key.
	rec, err := r.CreatePaused(t.Context(), testKey(testRunID), "a\u202eb\tc", testRunID, policy.HeartbeatRRule, t0)
	if err != nil || rec.Name != "a b c" {
		t.Fatalf("name: %q %v", rec.Name, err)
	}
	rec, err = r.CreatePaused(t.Context(), testKey(testRunID2), "", testRunID2, policy.HeartbeatRRule, t0)
	if err != nil || rec.Name != testKey(testRunID2) {
		t.Fatalf("empty name: %q %v", rec.Name, err)
	}
}

func TestListSortedByKeyAndIDsUnique(t *testing.T) {
	r, _ := openTemp(t)
	ctx := t.Context()
	keys := []string{
		policy.AutomationKey("zed/repo", 7, testRunID),
		policy.AutomationKey("abc/repo", 9, testRunID2),
		policy.AutomationKey("mid/repo", 1, testRunID),
	}
	runs := []string{testRunID, testRunID2, testRunID}
	for i, k := range keys {
		if _, err := r.CreatePaused(ctx, k, "n", runs[i], policy.HeartbeatRRule, t0); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := r.List(ctx)
	if err != nil || len(recs) != 3 {
		t.Fatalf("%v %v", recs, err)
	}
	ids := map[string]bool{}
	for i, rec := range recs {
		if i > 0 && recs[i-1].Key >= rec.Key {
			t.Fatalf("not sorted: %q then %q", recs[i-1].Key, rec.Key)
		}
		if ids[rec.ID] {
			t.Fatalf("duplicate id %s", rec.ID)
		}
		ids[rec.ID] = true
	}
}

// updated_at never goes back, even when the clock does.
func TestUpdatedAtNeverMovesBack(t *testing.T) {
	r, _ := openTemp(t)
	key := testKey(testRunID)
	rec := stubWithPrompt(t, r, testRunID, "p")
	back, err := r.Activate(t.Context(), key, rec.PromptSHA256, policy.HeartbeatRRule, t0.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if back.UpdatedAt != rec.UpdatedAt {
		t.Fatalf("updated_at moved from %s to %s", rec.UpdatedAt, back.UpdatedAt)
	}
}
