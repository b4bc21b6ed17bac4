// Package scripts holds the tests of the repository's shell scripts.
package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fuzzRepo copies fuzz.sh into a fresh git repository holding one fuzz
// target, pkg.FuzzFake, so that the script can be run against a fake `go`
// without touching this repository's corpus.
func fuzzRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	root := t.TempDir()
	script, err := os.ReadFile("fuzz.sh")
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, content string, mode os.FileMode) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("scripts/fuzz.sh", string(script), 0o755)
	write("pkg/fake_test.go", "package pkg\n\nfunc FuzzFake(f *testing.F) {}\n", 0o644)
	write("pkg/testdata/fuzz/FuzzFake/seed", "go test fuzz v1\n", 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// fakeGo writes a `go` that answers each call with the next of the given
// shell snippets (the last one repeats) and counts its calls in ./calls.
func fakeGo(t *testing.T, root string, runs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\nn=$(cat \"$FAKE_CALLS\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$FAKE_CALLS\"\ncase $n in\n")
	for i, r := range runs {
		pat := "*"
		if i < len(runs)-1 {
			pat = strconv.Itoa(i + 1)
		}
		b.WriteString(pat + ") " + r + " ;;\n")
	}
	b.WriteString("esac\n")
	p := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(p, []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	pass  = `echo PASS; exit 0`
	flake = `printf -- '--- FAIL: FuzzFake (10.15s)\n    context deadline exceeded\nFAIL\n'; exit 1`
	// A real failure writes its input into the corpus, then fails.
	crash  = `echo x > pkg/testdata/fuzz/FuzzFake/deadbeef; printf -- '--- FAIL: FuzzFake (1.00s)\n    context deadline exceeded\nFAIL\n'; exit 1`
	panics = `printf -- '--- FAIL: FuzzFake (1.00s)\n    --- FAIL: FuzzFake (0.00s)\n        panic: boom\n    Failing input written to testdata/fuzz/FuzzFake/1\nFAIL\n'; exit 1`
)

func runFuzz(t *testing.T, runs ...string) (string, int, int) {
	t.Helper()
	root := fuzzRepo(t)
	calls := filepath.Join(t.TempDir(), "calls")
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "fuzz.sh"))
	cmd.Env = append(os.Environ(), "GO="+fakeGo(t, root, runs...), "FAKE_CALLS="+calls, "FUZZTIME=1s")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	n, _ := os.ReadFile(calls)
	count, _ := strconv.Atoi(strings.TrimSpace(string(n)))
	return string(out), code, count
}

// Each outcome of a fake `go test -fuzz`: how fuzz.sh exits, after how
// many runs, and what it says.
func TestFuzzScript(t *testing.T) {
	cases := []struct {
		name        string
		runs        []string
		code, calls int
		says        string
	}{
		// Go's deadline race is run again, and says why.
		{"deadline-race-run-again", []string{flake, pass}, 0, 2, "golang/go#75804"},
		// Racing every time (FUZZRETRIES=2): flaked, not failed.
		{"deadline-race-every-time-flaked", []string{flake}, 0, 3, "1 flaked"},
		// A failure that wrote an input fails at once, whatever it printed.
		{"input-written-fails", []string{crash}, 1, 1, "1 with a failure"},
		{"property-failure-fails", []string{panics}, 1, 1, "1 with a failure"},
		{"pass-passes", []string{pass}, 0, 1, "1 ok, 0 with a failure, 0 flaked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code, calls := runFuzz(t, c.runs...)
			if code != c.code || calls != c.calls || !strings.Contains(out, c.says) {
				t.Fatalf("exit %d after %d runs, want %d after %d, saying %q\n%s", code, calls, c.code, c.calls, c.says, out)
			}
		})
	}
}
