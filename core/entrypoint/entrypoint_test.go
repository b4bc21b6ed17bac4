package entrypoint_test

import (
	"encoding/json"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/entrypoint"
	"github.com/prloop/gh-prloop/core/fixture"
)

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := canon.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// asMap round-trips the output through JSON, so tests see exactly the printed fields.
func asMap(t *testing.T, out entrypoint.Output) map[string]any {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInitialOutput(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	out, code := entrypoint.Run(entrypoint.KindInitial, encode(t, doc))
	if code != entrypoint.ExitOK {
		t.Fatalf("exit %d, errors %v", code, out.Errors)
	}
	m := asMap(t, out)
	wantHash, _ := canon.HashValue(doc["initial_manifest"])
	wantSnap, _ := canon.HashValue(doc["initial_snapshot"])
	if m["ok"] != true || m["kind"] != "initial" || m["plan_hash"] != wantHash || m["snapshot_sha256"] != wantSnap {
		t.Fatalf("unexpected output %v", m)
	}
	ops, _ := m["operations"].([]any)
	if len(ops) == 0 || ops[0] != "fetch-base" {
		t.Fatalf("operations %v", m["operations"])
	}
	if errs, ok := m["errors"].([]any); !ok || len(errs) != 0 {
		t.Fatalf("errors must be an empty list, got %v", m["errors"])
	}
}

func TestPromptOutput(t *testing.T) {
	doc := fixture.PromptDocument(fixture.PromptOptions{})
	out, code := entrypoint.Run(entrypoint.KindPrompt, encode(t, doc))
	if code != entrypoint.ExitOK {
		t.Fatalf("exit %d, errors %v", code, out.Errors)
	}
	m := asMap(t, out)
	if m["ok"] != true || m["kind"] != "prompt-ready" || m["automation_key"] != fixture.PromptAutomationKey(fixture.PromptOptions{}) {
		t.Fatalf("unexpected output %v", m)
	}
	if m["rendered_prompt_sha256"] != doc["rendered_prompt_sha256"] {
		t.Fatalf("rendered_prompt_sha256 %v, document says %v", m["rendered_prompt_sha256"], doc["rendered_prompt_sha256"])
	}
}

func TestStateOutput(t *testing.T) {
	cases := []struct {
		name           string
		opts           fixture.StateOptions
		action, reason string
		class          string
		code           int
	}{
		{"awaiting", fixture.StateOptions{Scenario: fixture.StateAwaiting}, "wait", "awaiting-response", "", entrypoint.ExitOK},
		{"findings", fixture.StateOptions{Scenario: fixture.StateFindings}, "plan-remediation", "findings", "", entrypoint.ExitOK},
		{"report-only", fixture.StateOptions{Scenario: fixture.StateNoRequest, Mode: "report-only"}, "report", "", "no-request", entrypoint.ExitOK},
		{"bootstrap-halts", fixture.StateOptions{Scenario: fixture.StateBootstrap}, "halt", "paused-bootstrap", "", entrypoint.ExitInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code := entrypoint.Run(entrypoint.KindState, encode(t, fixture.State(c.opts)))
			m := asMap(t, out)
			if code != c.code || m["action"] != c.action || (c.reason != "" && m["reason"] != c.reason) {
				t.Fatalf("exit %d output %v", code, m)
			}
			if c.class != "" && m["classification"] != c.class {
				t.Fatalf("classification %v, want %s", m["classification"], c.class)
			}
			if _, ok := m["ok"].(bool); !ok {
				t.Fatalf("ok missing: %v", m)
			}
		})
	}
}

func TestAllErrorsListed(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	snap := doc["initial_snapshot"].(map[string]any)
	delete(snap, "host")
	snap["extra"] = true
	doc["initial_manifest"].(map[string]any)["version"] = canon.Number("2")
	fixture.RecomputeInitial(doc)
	out, code := entrypoint.Run(entrypoint.KindInitial, encode(t, doc))
	if code != entrypoint.ExitInvalid || out.OK {
		t.Fatalf("exit %d ok %v", code, out.OK)
	}
	for _, want := range []struct{ path, code string }{
		{"/initial_snapshot/host", "missing-field"},
		{"/initial_snapshot/extra", "unknown-field"},
		{"/initial_manifest/version", "policy"},
	} {
		if !out.Errors.Has(want.path, want.code) {
			t.Errorf("missing error %s %s in %v", want.path, want.code, out.Errors)
		}
	}
}

func TestSyntaxError(t *testing.T) {
	for _, kind := range []string{entrypoint.KindInitial, entrypoint.KindPrompt, entrypoint.KindState} {
		out, code := entrypoint.Run(kind, []byte(`{"a":1,"a":2}`))
		if code != entrypoint.ExitInvalid || len(out.Errors) != 1 || out.Errors[0].Code != canon.CodeDuplicateKey {
			t.Fatalf("%s: exit %d errors %v", kind, code, out.Errors)
		}
	}
	out, _ := entrypoint.Run(entrypoint.KindState, []byte(``))
	if out.Action != "halt" || out.Reason != "schema" {
		t.Fatalf("an unreadable state must halt on schema, got %s/%s", out.Action, out.Reason)
	}
}
