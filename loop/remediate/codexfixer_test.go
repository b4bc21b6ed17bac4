package remediate_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The scripts/fixers example hands the contract file to `codex exec` on
// stdin, with workspace-write and without waiting on a terminal; a missing
// input file is a usage error. A stub stands in for the Codex CLI.
func TestCodexFixerExample(t *testing.T) {
	script, err := filepath.Abs("../../scripts/fixers/codex-exec.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	stub := filepath.Join(dir, "codex")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+log+"\ncat >> "+log+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "input.json")
	if err := os.WriteFile(input, []byte(`[{"thread_id":"PRRT_1","path":"a.go","line":3,"start_line":null,"priority":"P1","title":"t","body":"b"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(script, stub, input).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{"exec\n", "--sandbox\nworkspace-write\n", "--skip-git-repo-check\n", `"thread_id":"PRRT_1"`, "Edit only the files"} {
		if !strings.Contains(got, want) {
			t.Fatalf("codex got %q, missing %q", got, want)
		}
	}
	cmd := exec.Command(script, stub, filepath.Join(dir, "missing.json"))
	if err := cmd.Run(); err == nil {
		t.Fatal("a missing input file was accepted")
	} else if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("missing input: %v, want exit 2", err)
	}
}
