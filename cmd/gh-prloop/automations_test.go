package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/automations/manage"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/spf13/cobra"
)

const (
	autoRunA = "0123456789abcdef0123456789abcdef"
	autoRunB = "fedcba9876543210fedcba9876543210"
)

var autoT0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

type autoBed struct {
	root        string
	interactive bool
	reg         *automations.Registry
}

func newAutoBed(t *testing.T) *autoBed {
	t.Helper()
	t.Setenv("GH_FORCE_TTY", "")
	b := &autoBed{root: t.TempDir()}
	reg, err := automations.Open(b.root)
	if err != nil {
		t.Fatal(err)
	}
	b.reg = reg
	return b
}

// seed records an ACTIVE loop (run A) and a bootstrap stub (run B).
func (b *autoBed) seed(t *testing.T) (active, stub automations.Record) {
	t.Helper()
	ctx := t.Context()
	ka := policy.AutomationKey("octo-org/hello-world", 42, autoRunA)
	if _, err := b.reg.CreatePaused(ctx, ka, "octo-org/hello-world#42", autoRunA, policy.HeartbeatRRule, autoT0); err != nil {
		t.Fatal(err)
	}
	rec, err := b.reg.SetPrompt(ctx, ka, "Continue\nLoop key: "+ka, autoT0)
	if err != nil {
		t.Fatal(err)
	}
	if active, err = b.reg.Activate(ctx, ka, rec.PromptSHA256, policy.HeartbeatRRule, autoT0); err != nil {
		t.Fatal(err)
	}
	kb := policy.AutomationKey("octo-org/other", 7, autoRunB)
	if stub, err = b.reg.CreatePaused(ctx, kb, "octo-org/other#7", autoRunB, policy.HeartbeatRRule, autoT0); err != nil {
		t.Fatal(err)
	}
	return active, stub
}

func (b *autoBed) run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	env := automationsEnv{
		getenv:      func(k string) string { return map[string]string{"GH_PRLOOP_STATE_DIR": b.root}[k] },
		homeDir:     func() (string, error) { return "/nonexistent", nil },
		now:         func() time.Time { return autoT0.Add(time.Hour) },
		interactive: func(*cobra.Command) bool { return b.interactive },
	}
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), &out, &errOut)
	for _, c := range root.Commands() {
		if c.Name() == "automations" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newAutomationsCmd(env))
	return runPlanTestCLI(t, root, &out, &errOut, args...)
}

func TestAutomationsListAndShow(t *testing.T) {
	b := newAutoBed(t)
	if out, _, code := b.run(t, "", "automations", "list"); code != 0 || out != "No automations.\n" {
		t.Fatalf("empty list: %d %q", code, out)
	}
	if out, _, code := b.run(t, "", "automations", "list", "--json"); code != 0 || out != "[]\n" {
		t.Fatalf("empty list --json: %d %q", code, out)
	}
	active, stub := b.seed(t)

	out, _, code := b.run(t, "", "automations", "list")
	if code != 0 {
		t.Fatalf("list: %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "STATUS") ||
		!strings.HasPrefix(lines[1], "ACTIVE") || !strings.Contains(lines[1], active.Key) ||
		!strings.HasPrefix(lines[2], "PAUSED") || !strings.Contains(lines[2], stub.Key) || !strings.Contains(lines[2], "bootstrap") {
		t.Fatalf("list:\n%s", out)
	}

	out, _, code = b.run(t, "", "automations", "list", "--json")
	if code != 0 {
		t.Fatalf("list --json: %d", code)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	// Off a terminal the output is compact and canonical.
	want, _ := canon.Marshal(manage.JSONList([]automations.Record{active, stub}))
	if out != string(want)+"\n" {
		t.Fatalf("list --json is not the canonical records:\n%s\n%s", out, want)
	}

	for _, arg := range []string{active.Key, active.ID} {
		out, _, code = b.run(t, "", "automations", "show", arg)
		if code != 0 || !strings.Contains(out, "status         ACTIVE") || !strings.Contains(out, "  Loop key: "+active.Key) || !strings.Contains(out, active.PromptSHA256) {
			t.Fatalf("show %s: %d\n%s", arg, code, out)
		}
	}
	out, _, _ = b.run(t, "", "automations", "show", stub.Key)
	if !strings.Contains(out, "No prompt yet") {
		t.Fatalf("show stub:\n%s", out)
	}
	out, _, code = b.run(t, "", "automations", "show", "--json", stub.ID)
	if w, _ := canon.Marshal(manage.JSON(stub)); code != 0 || out != string(w)+"\n" {
		t.Fatalf("show --json: %d %s", code, out)
	}
	if _, stderr, code := b.run(t, "", "automations", "show", "nope"); code != 1 || !strings.Contains(stderr, `no automation has this key or id: "nope"`) {
		t.Fatalf("show unknown: %d %s", code, stderr)
	}
	if _, _, code := b.run(t, "", "automations", "show"); code != 2 {
		t.Fatalf("show without KEY: %d", code)
	}
	if _, _, code := b.run(t, "", "automations", "list", "extra"); code != 2 {
		t.Fatalf("list with an argument: %d", code)
	}
	if _, _, code := b.run(t, "", "automations", "list", "--bogus"); code != 2 {
		t.Fatalf("list with an unknown flag: %d", code)
	}
}

func TestAutomationsPauseResume(t *testing.T) {
	b := newAutoBed(t)
	active, stub := b.seed(t)

	out, _, code := b.run(t, "", "automations", "pause", active.Key, "--reason", "looking at \x1b[31mit")
	if code != 0 || out != "Paused "+active.Key+": looking at [31mit\n" {
		t.Fatalf("pause: %d %q", code, out)
	}
	rec, _, _ := b.reg.Get(t.Context(), active.Key)
	if rec.Status != automations.StatusPaused || rec.UpdatedAt != "2026-03-01T10:00:00Z" {
		t.Fatalf("after pause: %+v", rec)
	}
	out, _, _ = b.run(t, "", "automations", "pause", active.ID)
	if !strings.Contains(out, "was already PAUSED: looking at") {
		t.Fatalf("second pause: %q", out)
	}
	out, _, code = b.run(t, "", "automations", "resume", "--json", active.Key)
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["status"] != "ACTIVE" || j["reason"] != "" {
		t.Fatalf("resume --json: %d %s", code, out)
	}
	if _, stderr, code := b.run(t, "", "automations", "resume", stub.Key); code != 1 || !strings.Contains(stderr, "gh-prloop apply") {
		t.Fatalf("resume of a stub: %d %s", code, stderr)
	}
	if rec, _, _ := b.reg.Get(t.Context(), stub.Key); rec.Status != automations.StatusPaused {
		t.Fatalf("the stub was resumed: %+v", rec)
	}
}

func TestAutomationsDeleteConfirmation(t *testing.T) {
	exists := func(b *autoBed, key string) bool {
		_, ok, err := b.reg.Get(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	t.Run("active without terminal or --yes is refused", func(t *testing.T) {
		b := newAutoBed(t)
		active, _ := b.seed(t)
		_, stderr, code := b.run(t, "delete\n", "automations", "delete", active.Key)
		if code != 2 || !strings.Contains(stderr, "--yes") || !exists(b, active.Key) {
			t.Fatalf("%d %s", code, stderr)
		}
	})
	t.Run("active confirmed on a terminal", func(t *testing.T) {
		b := newAutoBed(t)
		b.interactive = true
		active, _ := b.seed(t)
		out, stderr, code := b.run(t, "delete\n", "automations", "delete", active.Key)
		if code != 0 || out != "Deleted "+active.Key+"\n" || !strings.Contains(stderr, `Type "delete"`) || exists(b, active.Key) {
			t.Fatalf("%d %q %s", code, out, stderr)
		}
	})
	t.Run("active declined on a terminal", func(t *testing.T) {
		b := newAutoBed(t)
		b.interactive = true
		active, _ := b.seed(t)
		_, stderr, code := b.run(t, "y\n", "automations", "delete", active.Key)
		if code != 2 || !strings.Contains(stderr, "not deleted") || !exists(b, active.Key) {
			t.Fatalf("%d %s", code, stderr)
		}
	})
	t.Run("active with --yes", func(t *testing.T) {
		b := newAutoBed(t)
		active, _ := b.seed(t)
		out, _, code := b.run(t, "", "automations", "delete", "--yes", "--json", active.ID)
		if code != 0 || exists(b, active.Key) {
			t.Fatalf("%d %s", code, out)
		}
		want, _ := json.Marshal(map[string]any{"deleted": true, "id": active.ID, "key": active.Key})
		if out != string(want)+"\n" {
			t.Fatalf("delete --json: %s", out)
		}
	})
	t.Run("paused needs no confirmation", func(t *testing.T) {
		b := newAutoBed(t)
		_, stub := b.seed(t)
		if _, stderr, code := b.run(t, "", "automations", "delete", stub.Key); code != 0 || exists(b, stub.Key) {
			t.Fatalf("%d %s", code, stderr)
		}
		if _, stderr, code := b.run(t, "", "automations", "delete", stub.Key); code != 1 || !strings.Contains(stderr, "no automation has this key or id") {
			t.Fatalf("deleting it again: %d %s", code, stderr)
		}
	})
}

func TestAutomationsCorruptRegistry(t *testing.T) {
	b := newAutoBed(t)
	b.seed(t)
	data, err := os.ReadFile(b.reg.Path())
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"status":"ACTIVE"`, `"status":"RUNNING"`, 1)
	if err := os.WriteFile(b.reg.Path(), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"automations", "list"}, {"automations", "pause", "x"}} {
		_, stderr, code := b.run(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "/automations/0/status: invalid-value") || !strings.Contains(stderr, b.reg.Path()) {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
	}
	if got, _ := os.ReadFile(b.reg.Path()); string(got) != edited {
		t.Fatal("the registry was repaired")
	}
}
