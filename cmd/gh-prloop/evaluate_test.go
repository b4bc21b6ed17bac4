package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
)

// run executes the production CLI in-process and returns stdout, stderr and
// the exit status exactly as main would compute it.
func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	return runPlanTestCLI(t, newRootCmd(strings.NewReader(stdin), &out, &errb), &out, &errb, args...)
}

func writeDoc(t *testing.T, v any) string {
	t.Helper()
	b, err := canon.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvaluateExitCodes(t *testing.T) {
	valid := writeDoc(t, fixture.InitialDocument(fixture.InitialOptions{}))
	broken := fixture.InitialDocument(fixture.InitialOptions{})
	broken["initial_plan_hash"] = strings.Repeat("0", 64)
	invalid := writeDoc(t, broken)

	cases := []struct {
		name string
		args []string
		in   string
		code int
	}{
		{"valid initial", []string{"evaluate", "--initial", valid}, "", 0},
		{"valid from stdin", []string{"evaluate", "--initial", "-"}, mustRead(t, valid), 0},
		{"invalid initial", []string{"evaluate", "--initial", invalid}, "", 1},
		{"not json", []string{"evaluate", "--state", "-"}, "{", 1},
		{"missing file", []string{"evaluate", "--initial", filepath.Join(t.TempDir(), "nope.json")}, "", 2},
		{"no mode flag", []string{"evaluate", valid}, "", 2},
		{"two mode flags", []string{"evaluate", "--initial", "--state", valid}, "", 2},
		{"unknown flag", []string{"evaluate", "--bogus"}, "", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := run(t, c.in, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, c.code, stdout, stderr)
			}
			{
				var m map[string]any
				if err := json.Unmarshal([]byte(stdout), &m); err != nil {
					t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
				}
				if (c.code == 0) != (m["ok"] == true) {
					t.Fatalf("ok=%v with exit %d", m["ok"], c.code)
				}
				if errs, _ := m["errors"].([]any); c.code != 0 && len(errs) == 0 {
					t.Fatalf("a failure must list its errors: %v", m)
				}
			}
		})
	}
}

func TestHashAndCanonicalAgree(t *testing.T) {
	in := `{"b":[1,-0,18446744073709551616],"a":"<\u2028>"}`
	canonical, _, code := run(t, in, "canonical")
	if code != 0 || canonical != "{\"a\":\"<\u2028>\",\"b\":[1,0,18446744073709551616]}" {
		t.Fatalf("canonical %q exit %d", canonical, code)
	}
	hash, _, code := run(t, in, "hash")
	if code != 0 || strings.TrimSpace(hash) != canon.Hash([]byte(canonical)) {
		t.Fatalf("hash %q exit %d", hash, code)
	}
	if _, stderr, code := run(t, `{"a":1.5}`, "hash"); code != 1 || !strings.Contains(stderr, "not-integer") {
		t.Fatalf("a float must be refused with exit 1 and its code, got %d %q", code, stderr)
	}
}

func TestPolicyJSON(t *testing.T) {
	out, _, code := run(t, "", "policy", "--json")
	var m map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
		t.Fatalf("exit %d output %q", code, out)
	}
	if m["codex_bot_id"] != float64(199175422) || m["heartbeat_rrule"] != "FREQ=MINUTELY;INTERVAL=2" || m["max_fix_rounds"] != float64(5) {
		t.Fatalf("policy %v", m)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
