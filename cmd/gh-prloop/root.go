package main

import (
	"io"

	"github.com/spf13/cobra"
)

// version is set at build time (-ldflags "-X main.version=…"); "dev" otherwise.
var version = "dev"

// rootLong says what works today, not what the loop will do once built.
const rootLong = `gh-prloop is the approval console of the Codex pull-request review loop: every
write of the loop is a manifest whose exact SHA-256 a human approves.

What works today:
  start      plan, approve the exact hash, then execute the initial plan: commit,
             push, open the PR, ask Codex for a review, activate the loop's automation
  plan       build the initial plan from this checkout and approve its exact hash
  apply      execute an approved plan (resumes safely after a crash or Ctrl+C)
  wakeup     one wakeup of each ACTIVE loop: observe, evaluate, do the one action
  approve    approve a loop's pending remediation or finalization plan by its hash
  watch      the live console of a running loop (--all: every loop in one table)
  report     classify a pull request's Codex review state: a console, or --json
             (read-only)
  evaluate   validate a plan document or evaluate a recurring state (JSON)
  hash, canonical, policy
             the canonical JSON, its SHA-256 and the policy the evaluator enforces
  automations
             list, show, pause, resume or delete the loop's automations (the registry)
  schedule   install, show or remove the timer that runs the loop's wakeups
  demo       the consoles on a simulated pull request (no account, no network)
  sim        run the loopback GitHub simulator with a seeded checkout (development)

Exit status: 0 success, 1 error (or a halt), 2 usage error or cancelled, 4 not logged in,
8 a plan awaits approval (wakeup).
Commands with --json also take --jq EXPR and --template TMPL, as gh does.`

func newRootCmd(in io.Reader, out, errOut io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "gh-prloop",
		Short:         "Approval console for the Codex pull-request review loop",
		Long:          rootLong,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newScheduleCmd(defaultScheduleEnv))
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	root.AddCommand(newEvaluateCmd(), newHashCmd(), newCanonicalCmd(), newPolicyCmd(), newReportCmd(defaultClient), newDemoCmd(), newPlanCmd(defaultPlanEnv()), newSimCmd())
	root.AddCommand(newAutomationsCmd(defaultAutomationsEnv()))
	root.AddCommand(newStartCmd(defaultPlanEnv()), newApplyCmd(defaultPlanEnv()))
	root.AddCommand(newWakeupCmd(defaultPlanEnv()), newApproveCmd(defaultPlanEnv()))
	root.AddCommand(newWatchCmd(defaultPlanEnv()))
	applyUsageRules(root) // usage.go: after every AddCommand, so each command gets the rule
	return root
}
