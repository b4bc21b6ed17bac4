package automations

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
)

// validFile writes two records and returns the file parsed as a canon value.
func validFile(t *testing.T, r *Registry) map[string]any {
	t.Helper()
	stubWithPrompt(t, r, testRunID, "p")
	if _, err := r.CreatePaused(t.Context(), testKey(testRunID2), "n", testRunID2, policy.HeartbeatRRule, t0); err != nil {
		t.Fatal(err)
	}
	v, err := canon.Parse(fileBytes(t, r))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func rec0(doc map[string]any) map[string]any {
	return doc["automations"].([]any)[0].(map[string]any)
}

// A registry that is not exactly what this package writes is refused on
// every read and every write, with the field named by path and a stable
// code; the file is left as it was for the human to inspect.
func TestCorruptRegistryRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(doc map[string]any)
		raw  func(b []byte) []byte
		path string
		code string
	}{
		{name: "torn write", raw: func(b []byte) []byte { return b[:len(b)/2] }, path: "", code: problems.Syntax},
		{name: "empty file", raw: func([]byte) []byte { return nil }, path: "", code: problems.Syntax},
		{name: "indented by hand", raw: func(b []byte) []byte { return []byte(strings.Replace(string(b), ",", ", ", 1)) }, path: "", code: problems.Syntax},
		{name: "trailing newline", raw: func(b []byte) []byte { return append(b, '\n') }, path: "", code: problems.Syntax},
		{name: "not an object", raw: func([]byte) []byte { return []byte("[]") }, path: "", code: problems.WrongType},
		{name: "unknown top field", edit: func(d map[string]any) { d["extra"] = true }, path: "/extra", code: problems.UnknownField},
		{name: "version 2", edit: func(d map[string]any) { d["version"] = canon.Number("2") }, path: "/version", code: problems.InvalidValue},
		{name: "no automations", edit: func(d map[string]any) { delete(d, "automations") }, path: "/automations", code: problems.MissingField},
		{name: "automations not array", edit: func(d map[string]any) { d["automations"] = "x" }, path: "/automations", code: problems.WrongType},
		{name: "record not object", edit: func(d map[string]any) { d["automations"].([]any)[1] = "x" }, path: "/automations/1", code: problems.WrongType},
		{name: "missing status", edit: func(d map[string]any) { delete(rec0(d), "status") }, path: "/automations/0/status", code: problems.MissingField},
		{name: "unknown record field", edit: func(d map[string]any) { rec0(d)["owner"] = "x" }, path: "/automations/0/owner", code: problems.UnknownField},
		{name: "status not a string", edit: func(d map[string]any) { rec0(d)["status"] = canon.Number("1") }, path: "/automations/0/status", code: problems.WrongType},
		{name: "status RUNNING", edit: func(d map[string]any) { rec0(d)["status"] = "RUNNING" }, path: "/automations/0/status", code: problems.InvalidValue},
		{name: "prompt edited", edit: func(d map[string]any) { rec0(d)["prompt"] = "do something else" }, path: "/automations/0/prompt_sha256", code: problems.HashMismatch},
		{name: "bad prompt hash", edit: func(d map[string]any) { rec0(d)["prompt_sha256"] = "abc" }, path: "/automations/0/prompt_sha256", code: problems.InvalidValue},
		{name: "bad id", edit: func(d map[string]any) { rec0(d)["id"] = "" }, path: "/automations/0/id", code: problems.InvalidValue},
		{name: "key of another run", edit: func(d map[string]any) { rec0(d)["run_id"] = testRunID2 }, path: "/automations/0/key", code: problems.InvalidValue},
		{name: "bad run id", edit: func(d map[string]any) { rec0(d)["run_id"] = "x" }, path: "/automations/0/run_id", code: problems.InvalidValue},
		{name: "bad rrule", edit: func(d map[string]any) { rec0(d)["rrule"] = "often" }, path: "/automations/0/rrule", code: problems.InvalidValue},
		{name: "paused without reason", edit: func(d map[string]any) { rec0(d)["reason"] = "" }, path: "/automations/0/reason", code: problems.MissingField},
		{name: "active with reason", edit: func(d map[string]any) { rec0(d)["status"] = "ACTIVE" }, path: "/automations/0/reason", code: problems.Inconsistent},
		{name: "active without prompt", edit: func(d map[string]any) {
			r := d["automations"].([]any)[1].(map[string]any)
			r["status"], r["reason"] = "ACTIVE", ""
		}, path: "/automations/1/prompt", code: problems.Inconsistent},
		{name: "bidi in name", edit: func(d map[string]any) { rec0(d)["name"] = "abc\u202edef" }, path: "/automations/0/name", code: problems.InvalidValue},
		{name: "escape in reason", edit: func(d map[string]any) { rec0(d)["reason"] = "x\x1b[2Jy" }, path: "/automations/0/reason", code: problems.InvalidValue},
		{name: "bad created_at", edit: func(d map[string]any) { rec0(d)["created_at"] = "2026-03-01 09:00:00" }, path: "/automations/0/created_at", code: problems.InvalidTimestamp},
		{name: "updated before created", edit: func(d map[string]any) { rec0(d)["updated_at"] = "2020-01-01T00:00:00Z" }, path: "/automations/0/updated_at", code: problems.Inconsistent},
		{name: "duplicate key", edit: func(d map[string]any) {
			a := d["automations"].([]any)
			b := map[string]any{}
			for k, v := range a[0].(map[string]any) {
				b[k] = v
			}
			b["id"] = "automation-" + strings.Repeat("9", 32)
			d["automations"] = []any{a[0], b}
		}, path: "/automations/1/key", code: problems.Duplicate},
		{name: "unsorted", edit: func(d map[string]any) {
			a := d["automations"].([]any)
			a[0], a[1] = a[1], a[0]
		}, path: "/automations/1/key", code: problems.NotSorted},
		{name: "duplicate id", edit: func(d map[string]any) {
			a := d["automations"].([]any)
			a[1].(map[string]any)["id"] = a[0].(map[string]any)["id"]
		}, path: "/automations/1/id", code: problems.Duplicate},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := openTemp(t)
			doc := validFile(t, r)
			var data []byte
			if c.raw != nil {
				data = c.raw(fileBytes(t, r))
			} else {
				c.edit(doc)
				var err error
				if data, err = canon.Encode(doc); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(r.Path(), data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := r.List(t.Context())
			var ce *CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("List: got %v, want a CorruptError", err)
			}
			if !ce.Problems.Has(c.path, c.code) {
				t.Fatalf("want %s at %q, got %v", c.code, c.path, ce.Problems)
			}
			if !strings.Contains(err.Error(), r.Path()) {
				t.Fatalf("the error must name the file: %v", err)
			}
			// Writers refuse too, and never "repair" the file.
			if _, err := r.CreatePaused(t.Context(), policy.AutomationKey("new/repo", 1, testRunID), "n", testRunID, policy.HeartbeatRRule, t0); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("CreatePaused on a corrupt registry: %v", err)
			}
			if err := r.Delete(t.Context(), testKey(testRunID)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Delete on a corrupt registry: %v", err)
			}
			if _, err := r.AsState(testKey(testRunID)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("AsState on a corrupt registry: %v", err)
			}
			if got := fileBytes(t, r); string(got) != string(data) {
				t.Fatal("the corrupt file was rewritten")
			}
		})
	}
}

func TestFileIsCanonical(t *testing.T) {
	r, _ := openTemp(t)
	validFile(t, r)
	b := fileBytes(t, r)
	c, err := canon.Canonicalize(b)
	if err != nil || string(c) != string(b) {
		t.Fatalf("not canonical: %s", b)
	}
	if !strings.HasPrefix(string(b), `{"automations":[{"created_at":`) || !strings.HasSuffix(string(b), `],"version":1}`) {
		t.Fatalf("layout: %s", b)
	}
	fi, err := os.Stat(r.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", fi.Mode(), err)
	}
}
