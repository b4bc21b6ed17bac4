package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// keys types each string in its own read (so that the console sees
// separate key presses), then ends.
type keys struct{ k []string }

func (k *keys) Read(p []byte) (int, error) {
	if len(k.k) == 0 {
		return 0, io.EOF
	}
	n := copy(p, k.k[0])
	k.k = k.k[1:]
	return n, nil
}

func watchCLI(t *testing.T, env planEnv, in io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(in, &out, &errOut)
	for _, c := range root.Commands() {
		if c.Name() == "watch" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newWatchCmd(env))
	return runPlanTestCLI(t, root, &out, &errOut, args...)
}

func watchEnv(env planEnv, kv ...string) planEnv {
	prev := env.getenv
	env.getenv = func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return prev(k)
	}
	return env
}

// The console drives the loop through wakeup's path and lock: r wakes it,
// and q closes the console without interrupting that wakeup, whose record
// is in the history afterwards (where a reopened console reads it).
func TestWatchCommandWakesAndClosesSafely(t *testing.T) {
	env, key, _ := activeLoop(t, ghsim.Scenario{Kind: ghsim.Silent})
	state := env.getenv(statestore.EnvStateDir)
	if _, errOut, code := watchCLI(t, env, strings.NewReader(""), "watch"); code != 1 || !strings.Contains(errOut, "needs a terminal") {
		t.Fatalf("without a terminal: %d %q", code, errOut)
	}
	tty := watchEnv(env, "GH_FORCE_TTY", "1")
	if _, errOut, code := watchCLI(t, tty, strings.NewReader(""), "watch", "7", "--all"); code != 2 {
		t.Fatalf("KEY with --all: %d %q", code, errOut)
	}
	if _, errOut, code := watchCLI(t, tty, strings.NewReader(""), "watch", "9999"); code != 1 || !strings.Contains(errOut, "no loop in the registry for pull request #9999") {
		t.Fatalf("unknown PR: %d %q", code, errOut)
	}
	out, errOut, code := watchCLI(t, tty, &keys{k: []string{"r", "q"}}, "watch")
	if code != 0 {
		t.Fatalf("watch: %d %q", code, errOut)
	}
	run, err := wakeup.OpenRun(state, key)
	if err != nil {
		t.Fatal(err)
	}
	h, err := wakeup.History(run)
	if err != nil || len(h) != 1 || h[0].Action != "wait" {
		t.Fatalf("history after the console closed: %v %+v (stderr %q)", err, h, errOut)
	}
	if !strings.Contains(out, "gh-prloop") && !strings.Contains(out, "LOADING") && !strings.Contains(out, "WAITING") {
		t.Errorf("the console drew nothing recognisable:\n%q", out)
	}
	reg, err := automations.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok, _ := reg.Get(t.Context(), key); !ok || r.Status != "ACTIVE" {
		t.Errorf("automation after watch: %+v", r)
	}
}
