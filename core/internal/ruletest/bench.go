package ruletest

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// BenchValidate measures what one CLI call costs on doc: the strict parse of
// its canonical bytes plus validate. doc must be accepted.
func BenchValidate(b *testing.B, doc any, validate func(v any) problems.List) {
	data, _ := canon.Encode(doc)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		v, _ := canon.Parse(data)
		if errs := validate(v); !errs.Empty() {
			b.Fatal(errs)
		}
	}
}
