package gitx_test

import (
	"bytes"
	"context"
	"encoding/json"
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

// readEnv parses the fake git's recorded environment, without the variables
// its shell adds itself.
func readEnv(t *testing.T, p string) (map[string]string, []byte) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	delete(env, "PWD")
	delete(env, "SHLVL")
	delete(env, "_")
	return env, b
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

	env, envBytes := readEnv(t, envFile)
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

// TestPassEnvReachesGhOnlyByName: with gh's helper, a GH_TOKEN login or a
// proxy must work for git as it does for the API client, yet the invocation
// (and so an approved plan) must neither hold nor depend on the values.
func TestPassEnvReachesGhOnlyByName(t *testing.T) {
	gitPath, _, envFile := fakeGit(t)
	const token, proxy = "ghp_passpasspasspasspasspass123456", "http://u:p@proxy:1"
	// The runner's own process environment must not matter: only PassEnv does.
	t.Setenv("GH_TOKEN", "ghp_inheritedinheritedinherited1234")
	t.Setenv("GITHUB_TOKEN", "ghp_inheritedinheritedinherited5678")
	lookup := func(tok string) func(string) string {
		return func(k string) string {
			return map[string]string{
				"GH_TOKEN":    tok,
				"HTTPS_PROXY": proxy,
				"GH_HOST":     "", // empty is not passed
				// Not on the list: must never pass, whatever PassEnv says.
				"GIT_DIR": "/elsewhere", "PATH": "/evil", "HOME": "/home/u", "SSH_AUTH_SOCK": "/s",
			}[k]
		}
	}
	mk := func(o gitx.Options) *gitx.Runner {
		t.Helper()
		o.GitPath, o.GHConfigDir = gitPath, "/cfg/gh"
		r, err := gitx.New(o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	run := func(r *gitx.Runner) map[string]string {
		t.Helper()
		if _, err := r.Run(context.Background(), t.TempDir(), "ls-remote", "https://github.com/o/r.git"); err != nil {
			t.Fatal(err)
		}
		env, _ := readEnv(t, envFile)
		return env
	}

	none := mk(gitx.Options{})
	env := run(none)
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "HTTPS_PROXY"} {
		if _, ok := env[k]; ok {
			t.Errorf("%s reached git without PassEnv", k)
		}
	}

	r := mk(gitx.Options{PassEnv: lookup(token)})
	env = run(r)
	inv := r.Invocation()
	if env["GH_TOKEN"] != token || env["HTTPS_PROXY"] != proxy {
		t.Errorf("GH_TOKEN=%q HTTPS_PROXY=%q in git's environment", env["GH_TOKEN"], env["HTTPS_PROXY"])
	}
	if len(env) != len(inv.Env) {
		t.Errorf("environment %v, want exactly the keys of %v", env, inv.Env)
	}
	for k, v := range inv.Env {
		if k == "GH_TOKEN" || k == "HTTPS_PROXY" {
			if v != gitx.PassedValue {
				t.Errorf("invocation records %s=%q, want %q", k, v, gitx.PassedValue)
			}
		} else if env[k] != v {
			t.Errorf("%s=%q, want %q", k, env[k], v)
		}
	}
	for _, k := range []string{"GH_HOST", "GIT_DIR", "SSH_AUTH_SOCK", "GITHUB_TOKEN"} {
		if _, ok := env[k]; ok {
			t.Errorf("%s reached git", k)
		}
	}
	if env["PATH"] == "/evil" || env["HOME"] != "/dev/null" {
		t.Errorf("PassEnv overrode a fixed variable: PATH=%q HOME=%q", env["PATH"], env["HOME"])
	}
	invJSON, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(invJSON), token) || strings.Contains(string(invJSON), "u:p@") {
		t.Errorf("invocation holds a passed value: %s", invJSON)
	}

	if d := mk(gitx.Options{PassEnv: lookup("ghp_rotatedrotatedrotatedrotated12")}).InvocationSHA256(); d != r.InvocationSHA256() {
		t.Error("rotating the token changes invocation_sha256")
	}
	if none.InvocationSHA256() == r.InvocationSHA256() {
		t.Error("passing a token does not change invocation_sha256")
	}
	if mk(gitx.Options{PassEnv: func(string) string { return "" }}).InvocationSHA256() != none.InvocationSHA256() {
		t.Error("an empty environment differs from no PassEnv")
	}

	// A test helper replaces gh, so nothing is passed to it.
	env = run(mk(gitx.Options{CredentialHelper: "!/bin/helper", PassEnv: lookup(token)}))
	if _, ok := env["GH_TOKEN"]; ok {
		t.Error("GH_TOKEN passed to a non-gh helper")
	}

	// Errors name the command, never the environment.
	_, err = r.Run(context.Background(), filepath.Join(t.TempDir(), "missing"), "status")
	if err == nil {
		t.Fatal("running in a missing directory succeeded")
	}
	if msg := err.Error(); strings.Contains(msg, token) || strings.Contains(msg, "u:p@") {
		t.Errorf("error leaks a passed value: %s", msg)
	}
	if _, err := gitx.New(gitx.Options{GitPath: gitPath, PassEnv: func(k string) string {
		if k == "GH_TOKEN" {
			return "ghp_nul\x00secret"
		}
		return ""
	}}); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("NUL in a passed value: err = %v", err)
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
