package main

import (
	"io"

	"github.com/spf13/cobra"
)

// version is set at build time (-ldflags "-X main.version=…"); "dev" otherwise.
var version = "dev"

func newRootCmd(in io.Reader, out, errOut io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "gh-prloop",
		Short:         "Approval console for the Codex pull-request review loop",
		Long:          "gh-prloop opens or reuses a pull request, asks the Codex bot for a review, and\nlets an evaluator decide every next step; every write is a manifest whose exact\nSHA-256 a human approves.",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newScheduleCmd(defaultScheduleEnv))
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return exitWith(2, "%v\nRun '%s --help' for usage.", err, c.CommandPath())
	})
	root.AddCommand(newEvaluateCmd(), newHashCmd(), newCanonicalCmd(), newPolicyCmd(), newReportCmd(defaultClient), newDemoCmd(), newPlanCmd(defaultPlanEnv()), newSimCmd())
	root.AddCommand(newAutomationsCmd(defaultAutomationsEnv()))
	root.AddCommand(newStartCmd(defaultPlanEnv()), newApplyCmd(defaultPlanEnv()))
	root.AddCommand(newWakeupCmd(defaultPlanEnv()), newApproveCmd(defaultPlanEnv()))
	root.AddCommand(newWatchCmd(defaultPlanEnv()))
	return root
}
