package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/schedule"
)

func runSchedule(t *testing.T, env schedule.Env, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut)
	for _, c := range root.Commands() {
		if c.Name() == "schedule" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newScheduleCmd(func() (schedule.Env, error) { return env, nil }))
	return runPlanTestCLI(t, root, &out, &errOut, args...)
}

// install, status and remove end to end on a Linux without systemctl: the
// units land in XDG_CONFIG_HOME, nothing is run, and the human is told
// what to run.
func TestScheduleCommands(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	dir := t.TempDir()
	var ran [][]string
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "cfg")}
	env := schedule.Env{
		GOOS: "linux", Getenv: func(k string) string { return vars[k] }, Home: filepath.Join(dir, "home"),
		Executable: "/usr/local/bin/gh-prloop", StateRoot: filepath.Join(dir, "state"), RRule: policy.HeartbeatRRule,
		LookPath: func(string) (string, error) { return "", errors.New("not found") },
		Run: func(_ context.Context, argv []string) ([]byte, error) {
			ran = append(ran, argv)
			return nil, errors.New("must not run")
		},
	}
	out, stderr, code := runSchedule(t, env, "schedule", "status")
	if code != 0 || !strings.Contains(out, "schedule:  not installed") || !strings.Contains(out, "last run:  never") {
		t.Fatalf("status before: %d %s %s", code, out, stderr)
	}
	unitDir := filepath.Join(dir, "cfg", "systemd", "user")
	out, stderr, code = runSchedule(t, env, "schedule", "install")
	if code != 0 || !strings.Contains(out, "Wrote "+filepath.Join(unitDir, "gh-prloop-wakeup.timer")) ||
		!strings.Contains(out, "systemctl --user daemon-reload && systemctl --user enable --now gh-prloop-wakeup.timer") ||
		!strings.Contains(out, "Wakeups log to "+filepath.Join(dir, "state", "logs", "wakeup.log")) {
		t.Fatalf("install: %d\n%s%s", code, out, stderr)
	}
	out, _, code = runSchedule(t, env, "schedule", "status", "--json")
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st["installed"] != true || st["current"] != true || st["platform"] != "systemd" {
		t.Fatalf("status --json: %d %s", code, out)
	}
	out, _, code = runSchedule(t, env, "schedule", "remove")
	if code != 0 || !strings.Contains(out, "Removed "+filepath.Join(unitDir, "gh-prloop-wakeup.service")) {
		t.Fatalf("remove: %d %s", code, out)
	}
	if out, _, _ = runSchedule(t, env, "schedule", "remove"); !strings.Contains(out, "Nothing was installed.") {
		t.Fatalf("second remove: %s", out)
	}
	if len(ran) != 0 {
		t.Fatalf("ran %v without systemctl", ran)
	}
	if _, _, code := runSchedule(t, env, "schedule", "install", "extra"); code != 2 {
		t.Fatalf("usage error: %d", code)
	}
}
