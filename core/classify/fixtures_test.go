package classify

import "testing"

// The digests were recorded by the project that saved the raw service
// payloads (testdata/README.md). A retyped or "cleaned up" fixture fails here.
func TestFixturesAreTheBotsBytes(t *testing.T) {
	recorded := map[string]string{
		"summary_running.md": "618ca236e14153dda36ca9900c48228253d725d31498831bdcb5bb534f0c9321",
		"zero_findings.md":   "7d939bab6b6089e0ea89d069a9e3d8cb37e3df052fa58c7c54dee81a228e816b",
		"findings_review.md": "d29bea6ce5fa7c2a6810f71ad9f37c44833e0fc88541c8d4030cfa5f87340832",
		"finding_p1.md":      "ff2c6b22b5f36ec3b2347da074a3be12739fe0643a6748f3cffb1fc883860fbc",
	}
	for name, want := range recorded {
		if got := sha(fixture(t, name)); got != want {
			t.Errorf("%s: sha256 %s, recorded %s", name, got, want)
		}
	}
}
