package validate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/validate"
)

func BenchmarkInitial(b *testing.B) {
	ruletest.BenchValidate(b, fixture.InitialDocument(fixture.InitialOptions{}), initialErrs)
}

func initialErrs(v any) problems.List {
	_, errs := validate.Initial(v)
	return errs
}
