package validate_test

import "github.com/prloop/gh-prloop/core/internal/ruletest"

// want is one expected problem: {path, code}.
type want = ruletest.Want
