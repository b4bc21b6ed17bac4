package validate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/validate"
)

// FuzzInitial: any parsed input is validated without a panic, every problem
// is complete, and an accepted input re-canonicalizes to bytes that are
// accepted again with the same plan and snapshot hashes.
func FuzzInitial(f *testing.F) {
	for _, opts := range allVariants {
		b, err := canon.Encode(fixture.InitialDocument(opts))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
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
		canonical, err := canon.Encode(v)
		if err != nil {
			t.Fatalf("accepted a value canon cannot encode: %v", err)
		}
		v2, err := canon.Parse(canonical)
		if err != nil {
			t.Fatalf("canonical bytes do not parse: %v", err)
		}
		res2, errs2 := validate.Initial(v2)
		if !errs2.Empty() || res2.PlanHash != res.PlanHash || res2.SnapshotSHA256 != res.SnapshotSHA256 {
			t.Fatalf("re-canonicalized input validated differently: %v %+v %+v", errs2, res, res2)
		}
		again, _ := canon.Encode(v2)
		if !bytes.Equal(again, canonical) {
			t.Fatal("canonical encoding is not a fixed point")
		}
		if h, _ := canon.HashValue(v.(map[string]any)["initial_manifest"]); h != res.PlanHash {
			t.Fatalf("PlanHash %s is not the manifest hash %s", res.PlanHash, h)
		}
	})
}

// The committed corpus stays meaningful: valid-* seeds are accepted (so the
// fuzzer's re-canonicalization branch runs) and invalid-* seeds are not.
func TestFuzzCorpusSeeds(t *testing.T) {
	seeds := readCorpus(t, "FuzzInitial")
	for name, data := range seeds {
		v, err := canon.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, errs := validate.Initial(v)
		if strings.HasPrefix(name, "valid-") != errs.Empty() {
			t.Errorf("%s: problems %v", name, errs)
		}
	}
}

func readCorpus(t *testing.T, target string) map[string][]byte {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no committed corpus for %s: %v", target, err)
	}
	out := map[string][]byte{}
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
		out[e.Name()] = []byte(s)
	}
	return out
}
