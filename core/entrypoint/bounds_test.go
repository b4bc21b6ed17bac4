package entrypoint_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/entrypoint"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/problems"
)

// TestErrorListBounded (issue 12, break 4): a state with twenty thousand
// unknown fields reports the first MaxProblems problems and one final
// too-many-problems problem that counts the rest, for every kind; the
// printed result stays small (a 20 MB object once printed 169 MB of errors).
func TestErrorListBounded(t *testing.T) {
	const extra = 20_000
	for _, kind := range []string{entrypoint.KindState, entrypoint.KindInitial, entrypoint.KindPrompt} {
		var doc map[string]any
		switch kind {
		case entrypoint.KindState:
			doc = fixture.State(fixture.StateOptions{})
		case entrypoint.KindInitial:
			doc = fixture.InitialDocument(fixture.InitialOptions{})
		default:
			doc = fixture.PromptDocument(fixture.PromptOptions{})
		}
		for i := 0; i < extra; i++ {
			doc["x"+strconv.Itoa(i)] = canon.Number("1")
		}
		out, code := entrypoint.Run(kind, encode(t, doc))
		if code != entrypoint.ExitInvalid {
			t.Fatalf("%s: exit %d, want %d", kind, code, entrypoint.ExitInvalid)
		}
		if len(out.Errors) != problems.MaxProblems+1 {
			t.Fatalf("%s: %d errors listed, want %d", kind, len(out.Errors), problems.MaxProblems+1)
		}
		last := out.Errors[len(out.Errors)-1]
		if last.Code != problems.TooMany || out.Errors.Count() < extra {
			t.Fatalf("%s: last problem %+v, count %d; want %s counting at least %d", kind, last, out.Errors.Count(), problems.TooMany, extra)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 200<<10 {
			t.Fatalf("%s: printed result is %d bytes", kind, len(b))
		}
	}
}

// TestValueBudgetIsAnInvalidDocument: a document over canon's value budget
// is an invalid document (exit 1) with the stable code too-many-values, and
// a state halts with reason schema.
func TestValueBudgetIsAnInvalidDocument(t *testing.T) {
	doc := []byte("[" + strings.Repeat("0,", canon.MaxValues) + "0]")
	out, code := entrypoint.Run(entrypoint.KindState, doc)
	if code != entrypoint.ExitInvalid || len(out.Errors) != 1 || out.Errors[0].Code != canon.CodeTooManyValues {
		t.Fatalf("exit %d, errors %v; want exit 1 and one %s", code, out.Errors, canon.CodeTooManyValues)
	}
	if out.Action != "halt" || out.Reason != "schema" {
		t.Fatalf("got %s/%s, want halt/schema", out.Action, out.Reason)
	}
}
