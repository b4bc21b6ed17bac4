package bootstrap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
)

// FuzzPrompt: any parsed input is validated without a panic, a rejected one
// yields an empty result, and an accepted one re-canonicalizes to bytes that
// are accepted again with the same key and prompt.
func FuzzPrompt(f *testing.F) {
	for _, opts := range promptVariants {
		b, err := canon.Encode(fixture.PromptDocument(opts))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
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
		canonical, err := canon.Encode(v)
		if err != nil {
			t.Fatalf("accepted a value canon cannot encode: %v", err)
		}
		v2, err := canon.Parse(canonical)
		if err != nil {
			t.Fatalf("canonical bytes do not parse: %v", err)
		}
		res2, errs2 := bootstrap.Prompt(v2)
		if !errs2.Empty() || res2 != res {
			t.Fatalf("re-canonicalized input validated differently: %v %+v %+v", errs2, res, res2)
		}
		again, _ := canon.Encode(v2)
		if !bytes.Equal(again, canonical) {
			t.Fatal("canonical encoding is not a fixed point")
		}
	})
}

// The committed corpus stays meaningful: valid-* seeds are accepted (so the
// fuzzer's re-canonicalization branch runs) and invalid-* seeds are not.
func TestFuzzCorpusSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzPrompt")
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no committed corpus: %v", err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		body, ok := strings.CutPrefix(string(b), "go test fuzz v1\n[]byte(")
		body, ok2 := strings.CutSuffix(body, ")\n")
		s, err := strconv.Unquote(body)
		if !ok || !ok2 || err != nil {
			t.Fatalf("%s: not a go fuzz v1 []byte file", e.Name())
		}
		v, err := canon.Parse([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		_, errs := bootstrap.Prompt(v)
		if strings.HasPrefix(e.Name(), "valid-") != errs.Empty() {
			t.Errorf("%s: problems %v", e.Name(), errs)
		}
	}
}
