package automations

import (
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
)

// FuzzDecode: any bytes are either refused or are exactly the canonical
// encoding of the records they decode to, so an accepted registry is one
// this package could have written.
func FuzzDecode(f *testing.F) {
	r, _ := Open(f.TempDir())
	ctx := f.Context()
	key := testKey(testRunID)
	f.Add([]byte(`{"automations":[],"version":1}`))
	if _, err := r.CreatePaused(ctx, key, "n", testRunID, policy.HeartbeatRRule, t0); err == nil {
		if b, err := r.file.Read(); err == nil {
			f.Add(b)
		}
	}
	if rec, err := r.SetPrompt(ctx, key, "p\u202e", t0); err == nil {
		if _, err := r.Activate(ctx, key, rec.PromptSHA256, policy.HeartbeatRRule, t0); err == nil {
			if b, err := r.file.Read(); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := decode("fuzz", data)
		if err != nil {
			return
		}
		out, err := encode(recs)
		if err != nil {
			t.Fatalf("accepted records do not encode: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("accepted a file that is not its records' encoding:\n%s\n%s", data, out)
		}
	})
}
