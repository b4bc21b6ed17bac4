package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/statestore"
)

// activeLoop executes an initial plan on a testbed to an ACTIVE automation
// and returns the env of the commands and the loop key.
func activeLoop(t *testing.T, sc ghsim.Scenario) (planEnv, string, *ghsim.Server) {
	t.Helper()
	ctx := context.Background()
	bed := newPlanTestBed(t)
	bed.Sim.QueueCodexScenarios(sc)
	state := t.TempDir()
	env := bedPlanEnv(bed, state)
	env.getenv = func(k string) string {
		if k == statestore.EnvStateDir {
			return state
		}
		return ""
	}
	probe := func(context.Context) sandbox.Capabilities {
		return sandbox.Capabilities{NoNetwork: true, WritesConfined: true, MinimalEnv: true}
	}
	in := bed.Inputs("Add a retry budget", "Retries within a budget.")
	in.Mode = policy.ModeApprovalGated
	deps := bed.Deps()
	deps.Probe = probe
	runID := strings.Repeat("5a", 16)
	p, err := planner.Build(ctx, deps, in, runID)
	if err != nil {
		t.Fatal(err)
	}
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: "2026-03-02T10:00:00Z",
		ApproverID: p.Doc.InitialSnapshot.AuthenticatedUserID, ApproverLogin: bed.Viewer.Login}
	if _, err := initial.RecordApproval(ctx, state, runID, a, in); err != nil {
		t.Fatal(err)
	}
	run, err := statestore.OpenPlan(state, runID)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := automations.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	res, err := initial.Execute(ctx, initial.Deps{Git: bed.Runner, GitHub: bed.Client, Registry: initial.FromAutomations(reg), Probe: probe},
		initial.Job{Run: run, Approval: a, Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	return env, res.AutomationKey, bed.Sim
}

func runLoopCLI(t *testing.T, env planEnv, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut)
	for _, c := range root.Commands() {
		if c.Name() == "wakeup" || c.Name() == "approve" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newWakeupCmd(env), newApproveCmd(env))
	return runPlanTestCLI(t, root, &out, &errOut, args...)
}

// wakeup --json prints one object per loop with key, action, reason and
// what was done; exit 8 while a plan awaits approval; approve refuses a
// wrong hash (exit 1) and records the right one (exit 0).
func TestWakeupAndApproveCommands(t *testing.T) {
	env, key, sim := activeLoop(t, ghsim.Scenario{Kind: ghsim.Findings})
	if _, errOut, code := runLoopCLI(t, env, "wakeup"); code != 2 || !strings.Contains(errOut, "--all") {
		t.Fatalf("wakeup without KEY: %d %q", code, errOut)
	}
	out, errOut, code := runLoopCLI(t, env, "wakeup", "--all", "--json")
	var o wakeup.Outcome
	if err := json.Unmarshal([]byte(out), &o); err != nil || code != 0 || o.Key != key || o.Action != "wait" || o.Done != "nothing" ||
		!strings.Contains(out, `"actions":["wait"]`) {
		t.Fatalf("first wakeup: %d %q %q %v", code, out, errOut, err)
	}
	sim.Settle()
	out, errOut, code = runLoopCLI(t, env, "wakeup", key, "--json")
	if err := json.Unmarshal([]byte(out), &o); err != nil || code != wakeup.ExitPending || o.Action != "await-approval" || o.PlanHash == "" ||
		!strings.Contains(out, `"actions":["plan-remediation","await-approval"]`) {
		t.Fatalf("findings wakeup: %d %q %q %v", code, out, errOut, err)
	}
	out, _, code = runLoopCLI(t, env, "approve")
	if code != 2 || !strings.Contains(out, "plan hash: "+o.PlanHash) || !strings.Contains(out, "remediation plan of "+key) {
		t.Fatalf("approve without --hash: %d %q", code, out)
	}
	// The threads to fix are read as the consoles show them: path:line,
	// priority and title, not their node ids alone.
	if !regexp.MustCompile(`(?m)^    \S+:\d+  P[0-3]  \S`).MatchString(out) {
		t.Fatalf("approve without --hash does not show the threads by path, priority and title:\n%s", out)
	}
	// The loop named as the consoles print it, OWNER/REPO#N.
	parts := strings.Split(key, "/") // github-codex-pr-loop/OWNER/REPO/pull/N/run/ID
	ref := parts[1] + "/" + parts[2] + "#" + parts[4]
	if _, errOut, code = runLoopCLI(t, env, "approve", ref, "--hash", strings.Repeat("0", 64)); code != 1 || !strings.Contains(errOut, "not the pending plan's") {
		t.Fatalf("approve %s with a wrong hash: %d %q", ref, code, errOut)
	}
	if out, errOut, code = runLoopCLI(t, env, "approve", "--hash", o.PlanHash); code != 0 || !strings.Contains(out, "approved the remediation plan") {
		t.Fatalf("approve: %d %q %q", code, out, errOut)
	}
	out, _, code = runLoopCLI(t, env, "wakeup", key)
	if code != 1 || !strings.Contains(out, "execute-remediation (approved)") || !strings.Contains(out, "no fixer") {
		t.Fatalf("wakeup after approval, headless without a fixer (nothing is done): %d %q", code, out)
	}
}

// `wakeup --all` with nothing to wake tells a person so; the schedule's log
// (not a terminal) and --json stay empty.
func TestWakeupAllWithNoLoopSaysSoOnATerminal(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GH_PRLOOP_STATE_DIR", state)
	t.Setenv("GH_TOKEN", "x")
	out, errOut, code := run(t, "", "wakeup", "--all")
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("headless: exit %d, stdout %q, stderr %q; want 0 and nothing", code, out, errOut)
	}
	t.Setenv("GH_FORCE_TTY", "1")
	if out, errOut, code = run(t, "", "wakeup", "--all", "--json"); code != 0 || out != "" || errOut != "" {
		t.Fatalf("--json: exit %d, stdout %q, stderr %q; want 0 and nothing", code, out, errOut)
	}
	if out, errOut, code = run(t, "", "wakeup", "--all"); code != 0 || out != "" || !strings.Contains(errOut, "no ACTIVE loop to wake") {
		t.Fatalf("terminal: exit %d, stdout %q, stderr %q; want it to say there is no loop", code, out, errOut)
	}
}
