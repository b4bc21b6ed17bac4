package ruletest

import (
	"bytes"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
)

// Seed adds each document's canonical bytes to the fuzzer's corpus.
func Seed(f *testing.F, docs ...any) {
	f.Helper()
	for _, d := range docs {
		b, err := canon.Encode(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// Reparse sends an accepted value through its canonical bytes and the strict
// parser, as the next run of the CLI would read it, and requires that
// encoding to be a fixed point. The caller validates the result again.
func Reparse(t testing.TB, v any) any {
	t.Helper()
	canonical, err := canon.Encode(v)
	if err != nil {
		t.Fatalf("accepted a value canon cannot encode: %v", err)
	}
	v2, err := canon.Parse(canonical)
	if err != nil {
		t.Fatalf("canonical bytes do not parse: %v", err)
	}
	again, _ := canon.Encode(v2)
	if !bytes.Equal(again, canonical) {
		t.Fatal("canonical encoding is not a fixed point")
	}
	return v2
}
