package local_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/local"
)

func TestSplitCommand(t *testing.T) {
	ok := map[string][]string{
		"go test ./...":                {"go", "test", "./..."},
		"  make   check  ":             {"make", "check"},
		`sh -c 'echo "$HOME" | wc'`:    {"sh", "-c", `echo "$HOME" | wc`},
		`printf "a \"b\" \\ c"`:        {"printf", `a "b" \ c`},
		`echo it\'s`:                   {"echo", "it's"},
		`echo a\ b`:                    {"echo", "a b"},
		`echo ''`:                      {"echo", ""},
		`x=1`:                          {"x=1"},
		"echo a#b":                     {"echo", "a#b"},
		"echo a~b":                     {"echo", "a~b"},
		`echo "a\$b"`:                  {"echo", "a$b"},
		"pytest -k 'not slow' -q":      {"pytest", "-k", "not slow", "-q"},
		"echo 'multi word'\"joined\"x": {"echo", "multi wordjoinedx"},
	}
	for line, want := range ok {
		got, err := local.SplitCommand(line)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
	for _, bad := range []string{
		"", "   ", "make && make test", "a | b", "a; b", "a > out", "echo $HOME", "echo `id`",
		`echo "$(id)"`, "ls *.go", "cd ~", "'unterminated", `"unterminated`, `trailing\`, "echo # comment",
		"(subshell)", "a & b", "\xff",
	} {
		if got, err := local.SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) = %q, want an error", bad, got)
		}
	}
}

func TestResolveCommand(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "check.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := local.ResolveCommandIn(dir, "./check.sh --fast 'two words'")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Argv, []string{script, "--fast", "two words"}) {
		t.Fatalf("argv %q", c.Argv)
	}
	sum := sha256.Sum256([]byte("#!/bin/sh\nexit 0\n"))
	want, err := canon.HashValue(map[string]any{"argv": []any{script, "--fast", "two words"}, "executable_sha256": hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	if c.DefinitionSHA256 != want {
		t.Fatalf("definition %s, want %s", c.DefinitionSHA256, want)
	}

	// The same command line with a different executable is a different definition.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c2, err := local.ResolveCommandIn(dir, "./check.sh --fast 'two words'")
	if err != nil {
		t.Fatal(err)
	}
	if c2.DefinitionSHA256 == c.DefinitionSHA256 {
		t.Fatal("definition digest ignores the executable's content")
	}

	// A bare name is looked up on PATH and made absolute.
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	g, err := local.ResolveCommand("git --version")
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := filepath.Abs(gitPath); g.Argv[0] != abs || !filepath.IsAbs(g.Argv[0]) {
		t.Fatalf("argv[0] = %q, want %q", g.Argv[0], gitPath)
	}

	for _, bad := range []string{"no-such-command-xyz", "./missing.sh", "./"} {
		if _, err := local.ResolveCommandIn(dir, bad); err == nil {
			t.Errorf("ResolveCommandIn(%q) succeeded", bad)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := local.ResolveCommandIn(dir, "./plain.txt"); err == nil {
		t.Error("a non-executable file was accepted")
	}
}
