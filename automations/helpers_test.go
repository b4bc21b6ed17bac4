package automations

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/policy"
)

const (
	testRunID  = "0123456789abcdef0123456789abcdef"
	testRunID2 = "fedcba9876543210fedcba9876543210"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func testKey(runID string) string { return policy.AutomationKey("octo-org/hello-world", 42, runID) }

func openTemp(t *testing.T) (*Registry, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "state")
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return r, root
}

func fileBytes(t *testing.T, r *Registry) []byte {
	t.Helper()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// stub creates the PAUSED stub of runID's key and gives it a prompt.
func stubWithPrompt(t *testing.T, r *Registry, runID, prompt string) Record {
	t.Helper()
	key := testKey(runID)
	if _, err := r.CreatePaused(t.Context(), key, "octo-org/hello-world#42", runID, policy.HeartbeatRRule, t0); err != nil {
		t.Fatal(err)
	}
	rec, err := r.SetPrompt(t.Context(), key, prompt, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
