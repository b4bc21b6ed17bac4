package evaluate_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// state builds a fixture state for a scenario in approval-gated mode.
func state(sc fixture.StateScenario) map[string]any {
	return fixture.State(fixture.StateOptions{Scenario: sc})
}

// roundTrip sends a state through canonical bytes and the strict parser, as
// the CLI would, so tests see exactly what a real input decodes to.
func roundTrip(t testing.TB, st map[string]any) any {
	t.Helper()
	b, err := canon.Encode(st)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	v, err := canon.Parse(b)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return v
}

func eval(t testing.TB, st map[string]any) evaluate.Result {
	t.Helper()
	return evaluate.Evaluate(roundTrip(t, st))
}

// decode returns the decoded state and its raw form; the state must decode.
func decode(t testing.TB, st map[string]any) (schema.State, map[string]any) {
	t.Helper()
	raw := roundTrip(t, st)
	errs := problems.List{}
	s := schema.DecodeState(raw, "", &errs)
	if !errs.Empty() {
		t.Fatalf("fixture does not decode: %v", errs)
	}
	return s, raw.(map[string]any)
}

func wantAction(t testing.TB, r evaluate.Result, action, reason string) {
	t.Helper()
	if r.Action != action || r.Reason != reason {
		t.Fatalf("got %s/%s (%s; errors %v; inconsistencies %v), want %s/%s",
			r.Action, r.Reason, r.Message, r.Errors, r.Inconsistencies, action, reason)
	}
	if r.OK != (action != evaluate.ActionHalt) {
		t.Fatalf("ok = %t for %s", r.OK, action)
	}
	if r.Errors == nil {
		t.Fatalf("errors must be [] not null")
	}
}

// wantOnly requires exactly one problem, at path with code.
func wantOnly(t testing.TB, errs problems.List, path, code string) {
	t.Helper()
	if len(errs) != 1 || errs[0].Path != path || errs[0].Code != code {
		t.Fatalf("got %d problems %s, want exactly %s %s", len(errs), describe(errs), path, code)
	}
}

// wantHas requires a problem at path with code among others.
func wantHas(t testing.TB, errs problems.List, path, code string) {
	t.Helper()
	if !errs.Has(path, code) {
		t.Fatalf("got %s, want one at %s %s", describe(errs), path, code)
	}
}

func describe(errs problems.List) string {
	parts := make([]string, len(errs))
	for i, p := range errs {
		parts[i] = p.Path + " " + p.Code + " (" + p.Message + ")"
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// schemaOnly asserts halt/schema with exactly the one problem.
func schemaOnly(t testing.TB, st map[string]any, path, code string) {
	t.Helper()
	r := eval(t, st)
	wantAction(t, r, evaluate.ActionHalt, evaluate.ReasonSchema)
	wantOnly(t, r.Errors, path, code)
}

// list indexes into a fixture Value (ruletest.Obj walks deeper).
func list(v map[string]any, key string) []any { return v[key].([]any) }

func num(n int64) canon.Number { return canon.Number(itoa(n)) }

func itoa(n int64) string {
	b, _ := canon.Encode(n)
	return string(b)
}

func digest(label string) string { return fixture.InitialDigest("test:" + label) }

func evalValue(t testing.TB, v any) evaluate.Result {
	t.Helper()
	return evaluate.Evaluate(v)
}

func json(b []byte, sub string) bool { return strings.Contains(string(b), sub) }
