package bootstrap_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
)

// FuzzPrompt: any parsed input is validated without a panic, a rejected one
// yields an empty result, and an accepted one re-canonicalizes to bytes that
// are accepted again with the same key and prompt.
func FuzzPrompt(f *testing.F) {
	for _, opts := range promptVariants {
		ruletest.Seed(f, fixture.PromptDocument(opts))
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"bootstrap_snapshot":{},"initial_document":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			return
		}
		res, errs := bootstrap.Prompt(v)
		if !errs.Empty() {
			if res != (bootstrap.PromptResult{}) {
				t.Fatalf("rejected document produced a result: %+v", res)
			}
			return
		}
		if res.RenderedPromptSHA256 != canon.Hash([]byte(res.RenderedPrompt)) {
			t.Fatal("result digest does not match its prompt")
		}
		res2, errs2 := bootstrap.Prompt(ruletest.Reparse(t, v))
		if !errs2.Empty() || res2 != res {
			t.Fatalf("re-canonicalized input validated differently: %v %+v %+v", errs2, res, res2)
		}
	})
}

// The committed corpus stays meaningful: valid-* seeds are accepted (so the
// fuzzer's re-canonicalization branch runs) and invalid-* seeds are not.
func TestFuzzCorpusSeeds(t *testing.T) {
	ruletest.CheckCorpus(t, os.DirFS(filepath.Join("testdata", "fuzz")), "FuzzPrompt", promptErrs)
}
