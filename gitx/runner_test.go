package gitx_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/gitx"
)

// fakeGit records its argv (NUL-separated) and environment, so the test
// sees exactly what the runner hands the executable.
func fakeGit(t *testing.T) (gitPath, argvFile, envFile string) {
	t.Helper()
	dir := t.TempDir()
	argvFile, envFile = filepath.Join(dir, "argv"), filepath.Join(dir, "env")
	gitPath = filepath.Join(dir, "git")
	script := "#!/bin/sh\nprintf '%s\\0' \"$@\" > " + argvFile + "\nenv > " + envFile + "\n"
	if err := os.WriteFile(gitPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return gitPath, argvFile, envFile
}

func readArgv(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

func TestFixedInvocationAndMinimalEnvironment(t *testing.T) {
	gitPath, argvFile, envFile := fakeGit(t)
	// Inherited variables that would change git's behaviour or leak a secret.
	t.Setenv("GIT_DIR", "/elsewhere")
	t.Setenv("GIT_SSH_COMMAND", "evil")
	t.Setenv("GH_TOKEN", "ghp_secretsecretsecretsecretsecret12")
	t.Setenv("HTTPS_PROXY", "http://proxy.invalid")

	r, err := gitx.New(gitx.Options{GitPath: gitPath, CredentialHelper: "!/bin/helper"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := r.Run(ctx, t.TempDir(), "diff", "--stat"); err != nil {
		t.Fatal(err)
	}
	argv := readArgv(t, argvFile)
	wantPrefix := []string{
		"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "commit.gpgSign=false",
		"-c", "tag.gpgSign=false", "-c", "push.gpgSign=false", "-c", "protocol.allow=never",
		"-c", "protocol.https.allow=always", "-c", "core.protectHFS=true", "-c", "core.protectNTFS=true",
		"-c", "diff.external=", "-c", "core.askPass=", "-c", "credential.helper=", "-c", "credential.helper=!/bin/helper",
	}
	want := append(slices.Clone(wantPrefix), "diff", "--no-ext-diff", "--no-textconv", "--stat")
	if !slices.Equal(argv, want) {
		t.Fatalf("argv\n got %q\nwant %q", argv, want)
	}
	if _, err := r.Run(ctx, t.TempDir(), "status", "-z"); err != nil {
		t.Fatal(err)
	}
	if argv := readArgv(t, argvFile); !slices.Equal(argv, append(slices.Clone(wantPrefix), "status", "-z")) {
		t.Fatalf("status argv %q", argv)
	}

	envBytes, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(envBytes)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	delete(env, "PWD") // set by the shell that runs the fake git
	delete(env, "SHLVL")
	delete(env, "_")
	wantEnv := r.Invocation().Env
	if len(env) != len(wantEnv) {
		t.Fatalf("environment %v, want exactly %v", env, wantEnv)
	}
	for k, v := range wantEnv {
		if env[k] != v {
			t.Errorf("%s=%q, want %q", k, env[k], v)
		}
	}
	for k, v := range map[string]string{"HOME": "/dev/null", "LANG": "C", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"} {
		if env[k] != v {
			t.Errorf("%s=%q, want %q", k, env[k], v)
		}
	}
	if strings.Contains(string(envBytes), "ghp_secret") || strings.Contains(string(envBytes), "GIT_DIR") {
		t.Fatal("inherited environment leaked into git")
	}
}

func TestArgvRefusesGlobalOptions(t *testing.T) {
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"-c", "--exec-path=/tmp", ""} {
		if _, err := r.Run(context.Background(), t.TempDir(), sub, "x"); err == nil {
			t.Errorf("subcommand %q accepted", sub)
		}
	}
}

func TestInvocationDigestBindsEveryInput(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	mk := func(o gitx.Options) string {
		r, err := gitx.New(o)
		if err != nil {
			t.Fatal(err)
		}
		if r.InvocationSHA256() != r.Invocation().SHA256() {
			t.Fatal("cached digest differs from the invocation's")
		}
		return r.InvocationSHA256()
	}
	base := mk(gitx.Options{CredentialHelper: "!a"})
	if mk(gitx.Options{CredentialHelper: "!a"}) != base {
		t.Fatal("the same options give different digests")
	}
	withCA := mk(gitx.Options{CredentialHelper: "!a", CAFile: ca})
	if err := os.WriteFile(ca, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]string{
		"helper":     mk(gitx.Options{CredentialHelper: "!b"}),
		"ca":         withCA,
		"ca content": mk(gitx.Options{CredentialHelper: "!a", CAFile: ca}),
		"gh default": mk(gitx.Options{GHConfigDir: "/x"}),
	} {
		if d == base {
			t.Errorf("%s does not change the invocation digest", name)
		}
	}
	if withCA == mk(gitx.Options{CredentialHelper: "!a", CAFile: ca}) {
		t.Error("the CA file's content is not bound")
	}
	inv, err := gitx.New(gitx.Options{GHConfigDir: "/cfg/gh"})
	if err != nil {
		t.Fatal(err)
	}
	args := inv.Invocation().Args
	if last := args[len(args)-1]; !strings.HasPrefix(last, "credential.helper=!") || !strings.HasSuffix(last, "auth git-credential") {
		t.Errorf("default helper %q is not gh's", last)
	}
	if inv.Invocation().Env["GH_CONFIG_DIR"] != "/cfg/gh" {
		t.Error("GH_CONFIG_DIR not passed to gh")
	}
	if !filepath.IsAbs(inv.GitPath()) {
		t.Errorf("git path %q is not absolute", inv.GitPath())
	}
}

func TestErrorsAreRedacted(t *testing.T) {
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(context.Background(), t.TempDir(), "ls-remote", "https://user:ghp_abcdefghijklmnopqrstuvwxyz0123@127.0.0.1:1/o/r.git")
	var ge *gitx.Error
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "ghp_abcdef") || strings.Contains(msg, "user:") {
		t.Fatalf("error leaks credentials: %s", msg)
	}
	if ge.ExitCode <= 0 {
		t.Errorf("exit code %d", ge.ExitCode)
	}
}

func TestContextCancellation(t *testing.T) {
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.Run(ctx, t.TempDir(), "version")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestCQuoteRoundTripsThroughGit feeds awkward names to git's own
// --stdin-paths reader and compares with hashing each file by argv.
func TestCQuoteRoundTripsThroughGit(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("git", "init", "-q", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	names := []string{"plain", "sp ace", "new\nline", "cr\r", "tab\t", `q"uote`, `back\slash`, "\"leading-quote", "bad\xff\xfe", "ü"}
	var stdin bytes.Buffer
	for i, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		stdin.WriteString(gitx.CQuote([]byte(n)) + "\n")
	}
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.RunInput(context.Background(), dir, stdin.Bytes(), "hash-object", "--stdin-paths")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(got) != len(names) {
		t.Fatalf("%d ids for %d names", len(got), len(names))
	}
	for i, n := range names {
		one, err := r.Run(context.Background(), dir, "hash-object", "--", n)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(one)) != got[i] {
			t.Errorf("%q: stdin-paths %s, argv %s", n, got[i], one)
		}
	}
}
