package validate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/validate"
)

func BenchmarkInitial(b *testing.B) {
	data, _ := canon.Encode(fixture.InitialDocument(fixture.InitialOptions{}))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		v, _ := canon.Parse(data)
		if _, errs := validate.Initial(v); !errs.Empty() {
			b.Fatal(errs)
		}
	}
}
