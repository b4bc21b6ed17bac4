package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runDemo(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errb)
	root.SetArgs(append([]string{"demo"}, args...))
	err := root.Execute()
	if errb.Len() > 0 {
		t.Logf("stderr: %s", errb.String())
	}
	return out.String(), err
}

// Not a terminal (a buffer): the demo prints the plain report once and ends.
func TestDemoPlainReport(t *testing.T) {
	out, err := runDemo(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"octo-org/widgets#42: Add a retry budget to the HTTP client",
		"classification: FINDINGS — 3 actionable threads",
		"actionable (3):",
		"internal/retry/budget.go:42 P1 Reset the retry budget after a successful attempt (@chatgpt-codex-connector)",
		"non-codex (1):",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("plain output carries escape sequences")
	}
}

func TestDemoJSON(t *testing.T) {
	out, err := runDemo(t, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Result struct {
			Classification string `json:"classification"`
		} `json:"result"`
		State struct {
			Repository string `json:"repository"`
			Actionable []any  `json:"actionable_codex_threads"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.Result.Classification != "findings" || doc.State.Repository != "octo-org/widgets" || len(doc.State.Actionable) != 3 {
		t.Errorf("demo --json = %+v", doc)
	}
}

func TestDemoIsHidden(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	for _, c := range root.Commands() {
		if c.Name() == "demo" && !c.Hidden {
			t.Error("demo is listed in help")
		}
	}
	if _, err := runDemo(t, "--json", "--watch"); err == nil {
		t.Error("--json with --watch was accepted")
	}
}
