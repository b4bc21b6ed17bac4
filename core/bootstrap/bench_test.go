package bootstrap_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
)

func BenchmarkPrompt(b *testing.B) {
	data, _ := canon.Encode(fixture.PromptDocument(fixture.PromptOptions{}))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		v, _ := canon.Parse(data)
		if _, errs := bootstrap.Prompt(v); !errs.Empty() {
			b.Fatal(errs)
		}
	}
}
