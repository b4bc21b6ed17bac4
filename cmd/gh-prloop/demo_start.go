package main

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/spf13/cobra"
)

// newDemoStartCmd is `gh-prloop demo start`: the real `start --mode
// autonomous` on the seeded checkout of `demo plan`, against the simulator
// and the loopback git server in this process. Only the planEnv differs
// from production.
func newDemoStartCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "start",
		Short: "Execute an autonomous initial plan on a seeded checkout against the simulator",
		Long: `Create the seeded checkout of ` + "`demo plan`" + ` and run ` + "`gh-prloop start --mode autonomous`" + `
on it: the plan is validated, rebuilt and validated again immediately before
the first side effect, then committed, pushed to the loopback git server,
opened as a pull request ready for review on the simulator, Codex is asked
for a review, and the loop's automation is bootstrapped and made ACTIVE in a
temporary state directory (unless $GH_PRLOOP_STATE_DIR is set).

On a terminal the live operation list is shown; otherwise one line per
operation and the results. Everything is removed on exit; nothing leaves
this machine.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGHUP)
			defer stop()
			tmp, err := os.MkdirTemp("", "gh-prloop-demo-start-")
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			defer os.RemoveAll(tmp)
			bed, err := testbed.New(ctx, testbed.Options{Dir: tmp})
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			defer bed.Close()
			env := bedPlanEnv(bed, filepath.Join(tmp, "state"))
			in := demoPlanInputs(bed)
			// A validation command runs in the sandbox; autonomous mode
			// cannot accept a missing guarantee, so on a machine without
			// the sandbox the demo plan has none.
			in.Validate = nil
			if git, err := exec.LookPath("git"); err == nil && sandbox.Probe(ctx).All() {
				in.Validate = []string{git + " --no-optional-locks status --short"}
			}
			in.Mode = policy.ModeAutonomous
			return runStart(ctx, cmd, env, in, nil, false, false)
		},
	}
}
