package schema_test

import (
	"bytes"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// TestDecodeEncodeRoundTrip proves the Go types hold every field of every
// object exactly: decoding a valid document and encoding the struct again
// gives the same canonical bytes. A field missing from a struct, a wrong JSON
// name, or a nil slice that encodes as null would all break it.
func TestDecodeEncodeRoundTrip(t *testing.T) {
	type doc struct {
		name   string
		raw    map[string]any
		decode func(any, *problems.List) any
	}
	initial := func(v any, e *problems.List) any { return schema.DecodeInitialDocument(v, "", e) }
	prompt := func(v any, e *problems.List) any { return schema.DecodePromptDocument(v, "", e) }
	state := func(v any, e *problems.List) any { return schema.DecodeState(v, "", e) }
	docs := []doc{
		{"initial", fixture.InitialDocument(fixture.InitialOptions{}), initial},
		{"initial-reuse-no-commit", fixture.InitialDocument(fixture.InitialOptions{ReusePR: true, NoCommit: true}), initial},
		{"initial-risk", fixture.InitialDocument(fixture.InitialOptions{RiskAcceptance: true, Autonomous: true}), initial},
		{"prompt", fixture.PromptDocument(fixture.PromptOptions{}), prompt},
	}
	for _, sc := range []fixture.StateScenario{fixture.StateFindings, fixture.StateRemediationApproved, fixture.StateFinalizationApproved, fixture.StateFinalized, fixture.StateClaimed} {
		docs = append(docs, doc{"state", fixture.State(fixture.StateOptions{Scenario: sc}), state})
	}
	docs = append(docs, doc{"state-report", fixture.State(fixture.StateOptions{Scenario: fixture.StateFindings, Mode: "report-only"}), state})
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			want, err := canon.Encode(d.raw)
			if err != nil {
				t.Fatal(err)
			}
			var errs problems.List
			typed := d.decode(d.raw, &errs)
			if !errs.Empty() {
				t.Fatalf("valid fixture did not decode: %v", errs)
			}
			got, err := canon.Marshal(typed)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("round trip changed the document\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestDecodeReportsPathAndCode(t *testing.T) {
	raw := fixture.State(fixture.StateOptions{Scenario: fixture.StateFindings})
	raw["fix_rounds"] = canon.Number("-1")
	raw["pr"].(map[string]any)["number"] = true
	delete(raw, "gates")
	raw["surprise"] = nil
	raw["responses"].([]any)[0].(map[string]any)["bot_id"] = canon.Number("0")
	var errs problems.List
	schema.DecodeState(raw, "/state", &errs)
	for _, want := range []struct{ path, code string }{
		{"/state/fix_rounds", problems.OutOfRange},
		{"/state/pr/number", problems.WrongType},
		{"/state/gates", problems.MissingField},
		{"/state/surprise", problems.UnknownField},
		{"/state/responses/0/bot_id", problems.OutOfRange},
	} {
		if !errs.Has(want.path, want.code) {
			t.Errorf("want %s %s, got %v", want.path, want.code, errs)
		}
	}
}

func TestProductTime(t *testing.T) {
	for s, ok := range map[string]bool{
		"2026-03-01T10:00:00Z":      true,
		"2026-03-01T10:00:00.5Z":    false,
		"2026-03-01T10:00:00+00:00": false,
		"2026-03-01 10:00:00Z":      false,
	} {
		if schema.IsProductTime(s) != ok {
			t.Errorf("IsProductTime(%q) = %v", s, !ok)
		}
	}
	if _, err := schema.ParseTime("2026-03-01T10:00:00"); err == nil {
		t.Error("a timestamp without a timezone must be refused")
	}
}
