package validate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/validate"
)

// FuzzInitial: any parsed input is validated without a panic, every problem
// is complete, and an accepted input re-canonicalizes to bytes that are
// accepted again with the same plan and snapshot hashes.
func FuzzInitial(f *testing.F) {
	for _, opts := range allVariants {
		ruletest.Seed(f, fixture.InitialDocument(opts))
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"initial_manifest":null,"initial_plan_hash":"","initial_snapshot":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			return
		}
		res, errs := validate.Initial(v)
		for _, p := range errs {
			if p.Code == "" || p.Message == "" {
				t.Fatalf("incomplete problem %+v", p)
			}
		}
		if !errs.Empty() {
			return
		}
		res2, errs2 := validate.Initial(ruletest.Reparse(t, v))
		if !errs2.Empty() || res2.PlanHash != res.PlanHash || res2.SnapshotSHA256 != res.SnapshotSHA256 {
			t.Fatalf("re-canonicalized input validated differently: %v %+v %+v", errs2, res, res2)
		}
		if h, _ := canon.HashValue(v.(map[string]any)["initial_manifest"]); h != res.PlanHash {
			t.Fatalf("PlanHash %s is not the manifest hash %s", res.PlanHash, h)
		}
	})
}

// The committed corpus stays meaningful: valid-* seeds are accepted (so the
// fuzzer's re-canonicalization branch runs) and invalid-* seeds are not.
func TestFuzzCorpusSeeds(t *testing.T) {
	ruletest.CheckCorpus(t, os.DirFS(filepath.Join("testdata", "fuzz")), "FuzzInitial", initialErrs)
}
