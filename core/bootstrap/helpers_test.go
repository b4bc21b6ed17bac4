package bootstrap_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/problems"
)

// want is one expected problem: {path, code}.
type want = ruletest.Want

// assertContains requires every wanted problem and allows extra ones only
// under /bootstrap_snapshot/state: those are the recurring evaluator's own
// findings, which its package tests; this package only proves its rule fired.
func assertContains(t *testing.T, got problems.List, wants ...want) {
	t.Helper()
	for _, w := range wants {
		if !got.Has(w.Path(), w.Code()) {
			t.Errorf("missing problem %s %s; got %v", w.Path(), w.Code(), got)
		}
	}
	for _, p := range got {
		wanted := false
		for _, w := range wants {
			wanted = wanted || (p.Path == w.Path() && p.Code == w.Code())
		}
		if !wanted && !strings.HasPrefix(p.Path, "/bootstrap_snapshot/state") {
			t.Errorf("unexpected problem outside the state: %v", p)
		}
	}
}
