package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// `demo start` without a terminal executes the autonomous plan and prints
// the operation list and its results: what `make demo` shows.
func TestDemoStartWithoutATerminal(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	t.Setenv("GH_PRLOOP_STATE_DIR", "")
	var out, errOut bytes.Buffer
	root := &cobra.Command{Use: "gh-prloop", SilenceUsage: true, SilenceErrors: true}
	demo := &cobra.Command{Use: "demo"}
	demo.AddCommand(newDemoStartCmd())
	root.AddCommand(demo)
	root.SetIn(bytes.NewReader(nil))
	root.SetOut(&out)
	root.SetErr(&errOut)
	stdout, stderr, code := runPlanTestCLI(t, root, &out, &errOut, "demo", "start")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		"✓ re-validated", "fetch-base done", "commit done commit_sha=", "push done remote_head_sha=",
		"create-pr done pr_url=https://github.com/octo-org/widgets/pull/1", "request-codex-review done comment_id=",
		"bootstrap-automation done", "status=ACTIVE", "Pull request: https://github.com/octo-org/widgets/pull/1",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, stdout, stderr)
		}
	}
}
