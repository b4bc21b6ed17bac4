package bootstrap_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/problems"
)

func BenchmarkPrompt(b *testing.B) {
	ruletest.BenchValidate(b, fixture.PromptDocument(fixture.PromptOptions{}), promptErrs)
}

func promptErrs(v any) problems.List {
	_, errs := bootstrap.Prompt(v)
	return errs
}
