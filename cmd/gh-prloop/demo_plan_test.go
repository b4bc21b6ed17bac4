package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/spf13/cobra"
)

func newPlanTestBed(t *testing.T) *testbed.Bed {
	t.Helper()
	b, err := testbed.New(context.Background(), testbed.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// planTestRoot is the production root command with `plan` rebuilt on env:
// every other command, flag and error path is the one users get.
func planTestRoot(env planEnv, stdin []byte, out, errOut *bytes.Buffer) *cobra.Command {
	root := newRootCmd(bytes.NewReader(stdin), out, errOut)
	for _, c := range root.Commands() {
		if c.Name() == "plan" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newPlanCmd(env))
	return root
}

// runPlanTestCLI runs args and returns stdout, stderr and the exit status
// as main computes it.
func runPlanTestCLI(t *testing.T, root *cobra.Command, out, errOut *bytes.Buffer, args ...string) (string, string, int) {
	t.Helper()
	root.SetArgs(args)
	err := root.Execute()
	f, ferr := os.CreateTemp(t.TempDir(), "stderr")
	if ferr != nil {
		t.Fatal(ferr)
	}
	code := exitCode(err, f)
	f.Close()
	msg, _ := os.ReadFile(f.Name())
	return out.String(), errOut.String() + string(msg), code
}

func TestPlanJSONIsAcceptedByEvaluateWithTheSameHash(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	bed := newPlanTestBed(t)
	state := t.TempDir()
	env := bedPlanEnv(bed, state)

	var out, errOut bytes.Buffer
	doc, stderr, code := runPlanTestCLI(t, planTestRoot(env, nil, &out, &errOut), &out, &errOut,
		"plan", "--json", "--title", "Add a retry budget", "--validate", "git --version", "-C", bed.Path("internal"))
	if code != 0 {
		t.Fatalf("plan --json: exit %d: %s", code, stderr)
	}
	raw, err := canon.Parse(bytes.TrimSuffix([]byte(doc), []byte("\n")))
	if err != nil {
		t.Fatalf("plan --json printed no canonical document: %v\n%s", err, doc)
	}
	d := raw.(map[string]any)
	planHash, _ := d["initial_plan_hash"].(string)
	snap := d["initial_snapshot"].(map[string]any)
	if snap["repository"] != testbed.Repository || snap["head_branch"] != testbed.HeadBranch {
		t.Fatalf("snapshot names %v <- %v", snap["repository"], snap["head_branch"])
	}
	var paths []string
	for _, p := range snap["paths"].([]any) {
		paths = append(paths, p.(string))
	}
	if !slices.Equal(paths, testbed.ChangedPaths()) {
		t.Fatalf("paths %q, want %q", paths, testbed.ChangedPaths())
	}
	if cmds := snap["commands"].([]any); len(cmds) != 1 {
		t.Fatalf("commands %v", cmds)
	}

	out.Reset()
	errOut.Reset()
	verdict, stderr, code := runPlanTestCLI(t, planTestRoot(env, []byte(doc), &out, &errOut), &out, &errOut, "evaluate", "--initial", "-")
	if code != 0 {
		t.Fatalf("evaluate --initial: exit %d: %s\n%s", code, stderr, verdict)
	}
	var v struct {
		OK       bool   `json:"ok"`
		Kind     string `json:"kind"`
		PlanHash string `json:"plan_hash"`
	}
	if err := json.Unmarshal([]byte(verdict), &v); err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Kind != "initial" || v.PlanHash != planHash || len(planHash) != 64 {
		t.Fatalf("evaluate says %+v; plan says %s", v, planHash)
	}
	if entries, _ := os.ReadDir(state); len(entries) != 0 {
		t.Fatalf("plan --json recorded something: %v", entries)
	}
}

func TestPlanRefusalExitsOneWithTheReason(t *testing.T) {
	bed := newPlanTestBed(t)
	env := bedPlanEnv(bed, t.TempDir())
	var out, errOut bytes.Buffer
	stdout, stderr, code := runPlanTestCLI(t, planTestRoot(env, nil, &out, &errOut), &out, &errOut,
		"plan", "--json", "--title", "x", "--remote", "upstream", "-C", bed.Checkout)
	if code != 1 || stdout != "" || !strings.Contains(stderr, `refused (unknown-remote): no remote named "upstream"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// Without a terminal the demo prints the plan and core's verdict, whose
// plan hash is the one in the summary, and exits 0.
func TestDemoPlanWithoutATerminal(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	t.Setenv("GH_PRLOOP_STATE_DIR", "")
	var out, errOut bytes.Buffer
	root := &cobra.Command{Use: "gh-prloop", SilenceUsage: true, SilenceErrors: true}
	demo := &cobra.Command{Use: "demo"}
	demo.AddCommand(newDemoPlanCmd())
	root.AddCommand(demo)
	root.SetIn(bytes.NewReader(nil))
	root.SetOut(&out)
	root.SetErr(&errOut)
	stdout, stderr, code := runPlanTestCLI(t, root, &out, &errOut, "demo", "plan")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	var hash string
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "plan" && f[1] == "hash" {
			hash = f[2]
		}
	}
	i := strings.Index(stdout, "{")
	if hash == "" || i < 0 {
		t.Fatalf("no plan hash or verdict in:\n%s", stdout)
	}
	var v struct {
		OK       bool   `json:"ok"`
		PlanHash string `json:"plan_hash"`
	}
	if err := json.Unmarshal([]byte(stdout[i:]), &v); err != nil {
		t.Fatalf("verdict: %v\n%s", err, stdout)
	}
	if !v.OK || v.PlanHash != hash {
		t.Fatalf("verdict %+v, summary hash %s", v, hash)
	}
	for _, want := range []string{"octo-org/widgets", testbed.ModifiedFile, testbed.DeletedFile, testbed.UntrackedFile, "nothing was approved"} {
		if !strings.Contains(stdout+stderr, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, stdout, stderr)
		}
	}
}

// The demo removes its state directory on exit, so the approval statement
// must not point into it; a directory the user chose is named.
func TestDemoApprovalDoesNotPointAtItsRemovedStateDir(t *testing.T) {
	bed := newPlanTestBed(t)
	ctx := context.Background()
	p, err := planner.Build(ctx, bed.Deps(), demoPlanInputs(bed), "0123456789abcdef0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(statestore.EnvStateDir, "")
	temp := t.TempDir()
	got, err := recordApproval(ctx, bedPlanEnv(bed, temp), p, demoPlanInputs(bed), "0123456789abcdef0123456789abcdef", bed.Viewer.ID, bed.Viewer.Login)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, temp) || !strings.Contains(got, "temporary state directory, removed on exit") {
		t.Fatalf("statement %q", got)
	}
	mine := t.TempDir()
	t.Setenv(statestore.EnvStateDir, mine)
	got, err = recordApproval(ctx, bedPlanEnv(bed, temp), p, demoPlanInputs(bed), "fedcba9876543210fedcba9876543210", bed.Viewer.ID, bed.Viewer.Login)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "recorded in "+mine) {
		t.Fatalf("a directory the user chose must be named: %q", got)
	}
}
