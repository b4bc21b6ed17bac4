package ruletest

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// CheckCorpus keeps a committed fuzz corpus meaningful: every file of
// target (a directory of fuzzDir, normally os.DirFS("testdata/fuzz")) is a
// "go test fuzz v1" []byte seed, valid-* seeds are accepted by validate (so
// the fuzzer's re-canonicalization branch runs) and the others are not.
func CheckCorpus(t testing.TB, fuzzDir fs.FS, target string, validate func(v any) problems.List) {
	t.Helper()
	entries, err := fs.ReadDir(fuzzDir, target)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no committed corpus for %s: %v", target, err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(fuzzDir, path.Join(target, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		seed, ok := FuzzBytes(b)
		if !ok {
			t.Fatalf("%s: not a go fuzz v1 []byte file", e.Name())
		}
		v, err := canon.Parse(seed)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if errs := validate(v); strings.HasPrefix(e.Name(), "valid-") != errs.Empty() {
			t.Errorf("%s: problems %v", e.Name(), errs)
		}
	}
}

// FuzzBytes decodes a corpus file holding one []byte argument in the
// "go test fuzz v1" encoding.
func FuzzBytes(file []byte) ([]byte, bool) {
	body, ok := strings.CutPrefix(string(file), "go test fuzz v1\n[]byte(")
	body, ok2 := strings.CutSuffix(body, ")\n")
	s, err := strconv.Unquote(body)
	if !ok || !ok2 || err != nil {
		return nil, false
	}
	return []byte(s), true
}
