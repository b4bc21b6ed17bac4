package bootstrap_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/problems"
)

// want is one expected problem: its path and code. Messages are for humans
// and free to change; paths and codes are the contract.
type want struct{ path, code string }

// assertProblems requires got to hold exactly the wanted problems, no more:
// a case proves its rule only if nothing else rejected the document.
func assertProblems(t *testing.T, got problems.List, wants ...want) {
	t.Helper()
	var g, w []string
	for _, p := range got {
		g = append(g, p.Path+" "+p.Code)
	}
	for _, x := range wants {
		w = append(w, x.path+" "+x.code)
	}
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("problems:\n got  %s\n want %s\nfull: %v", strings.Join(g, " | "), strings.Join(w, " | "), got)
	}
}

// at walks a canon Value by object keys and array indexes.
func at(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func obj(v any, keys ...any) map[string]any { return at(v, keys...).(map[string]any) }
func arr(v any, keys ...any) []any          { return at(v, keys...).([]any) }

// assertContains requires every wanted problem and allows extra ones only
// under /bootstrap_snapshot/state: those are the recurring evaluator's own
// findings, which its package tests; this package only proves its rule fired.
func assertContains(t *testing.T, got problems.List, wants ...want) {
	t.Helper()
	for _, w := range wants {
		if !got.Has(w.path, w.code) {
			t.Errorf("missing problem %s %s; got %v", w.path, w.code, got)
		}
	}
	for _, p := range got {
		wanted := false
		for _, w := range wants {
			wanted = wanted || (p.Path == w.path && p.Code == w.code)
		}
		if !wanted && !strings.HasPrefix(p.Path, "/bootstrap_snapshot/state") {
			t.Errorf("unexpected problem outside the state: %v", p)
		}
	}
}
