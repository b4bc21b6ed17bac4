package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/prloop/gh-prloop/simenv"
)

// crashFaultEnv is a complete, valid simulator environment (nothing needs
// to listen: faultHook only validates it) plus PRLOOP_FAULT=point.
func crashFaultEnv(t *testing.T, point string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	ca, helper := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "helper")
	for _, f := range []string{ca, helper} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{
		simenv.EnvAPIURL: "http://127.0.0.1:1", simenv.EnvToken: "t", simenv.EnvCAFile: ca,
		simenv.EnvGitHost: "127.0.0.1:2", simenv.EnvGitCreds: helper, EnvFault: point,
	}
}

// The crash hook exists only with PRLOOP_FAULT and the complete simulator
// environment; a partial or missing simulator environment disables it, so
// it can never crash a process that works against GitHub.
func TestFaultHookIsGatedOnTheSimulator(t *testing.T) {
	full := crashFaultEnv(t, "before:push")
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if faultHook(get(full)) == nil {
		t.Fatal("no hook with PRLOOP_FAULT and the complete simulator environment")
	}
	if hook := faultHook(get(full)); hook("after:push") || hook("before:commit") {
		t.Fatal("the hook fired at a point other than PRLOOP_FAULT's")
	}
	noFault := map[string]string{}
	for k, v := range full {
		noFault[k] = v
	}
	delete(noFault, EnvFault)
	if faultHook(get(noFault)) != nil {
		t.Fatal("a hook without PRLOOP_FAULT")
	}
	for _, k := range simenv.Names {
		partial := map[string]string{}
		for kk, v := range full {
			if kk != k {
				partial[kk] = v
			}
		}
		if faultHook(get(partial)) != nil {
			t.Fatalf("a hook without %s", k)
		}
	}
	remote := map[string]string{}
	for k, v := range full {
		remote[k] = v
	}
	remote[simenv.EnvAPIURL] = "https://api.github.com"
	if faultHook(get(remote)) != nil {
		t.Fatal("a hook with a simulator URL that is not loopback")
	}
}

// At its point the hook SIGKILLs its own process (a child of this test).
func TestFaultHookKillsItsProcess(t *testing.T) {
	if os.Getenv("PRLOOP_FAULT_TEST_CHILD") == "1" {
		faultHook(os.Getenv)("before:push")
		os.Exit(0) // reached only when the hook did not kill
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultHookKillsItsProcess$")
	cmd.Env = []string{"PRLOOP_FAULT_TEST_CHILD=1", "PATH=" + os.Getenv("PATH")}
	for k, v := range crashFaultEnv(t, "before:push") {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("the child was not killed: %v", err)
	}
	if st, ok := ee.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended with %v, not SIGKILL", err)
	}
}
