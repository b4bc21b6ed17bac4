package main

import (
	"context"
	"strings"

	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/spf13/cobra"
)

func newApplyCmd(env planEnv) *cobra.Command {
	var (
		asJSON bool
		dir    string
	)
	cmd := &cobra.Command{
		Use:   "apply [RUN] [--json]",
		Short: "Execute an initial plan approved earlier with `plan`",
		Long: `Execute the approved initial plan of RUN (a run id printed by plan), or the
only approved and unfinished plan of this checkout.

Immediately before the first side effect the plan is rebuilt from fresh
observations and must hash exactly to the approved hash; any drift stops
everything and names the fields that changed. Then each operation runs in
the approved order — fetch-base, create-branch, run-validation, stage-files,
commit, push, create-pr or reuse-pr, request-codex-review,
bootstrap-automation — each reserved in the run's journal before its side
effect and receipted after it.

apply is safe to run again after any crash or Ctrl+C: finished operations
are skipped, and one that was interrupted is reconciled by observing git and
GitHub, never repeated blindly. Ctrl+C stops between operations.

--json prints one JSON object per line: operation-started, operation-output,
operation-finished, operation-failed, and a final result.

Exit status: 0 done, 1 drift, halt or error (also when another gh-prloop is
acting on the run), 2 stopped between operations or usage error, 4 not
logged in.`,
		Example: "  gh-prloop apply\n  gh-prloop apply 0123456789abcdef0123456789abcdef --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := statestore.Root(env.getenv, env.homeDir)
			if err != nil {
				return exitWith(1, "%v", err)
			}
			var runID string
			if len(args) == 1 {
				runID = args[0]
				if _, err := statestore.PlanKey(runID); err != nil {
					return exitWith(2, "RUN must be a run id of 32 lowercase hex characters, got %q", runID)
				}
			} else if runID, err = onlyPending(cmd.Context(), env, root, dir); err != nil {
				return err
			}
			run, err := statestore.OpenPlan(root, runID)
			if err != nil {
				return exitWith(1, "%v", err)
			}
			a, err := run.ReadApproval()
			if err != nil {
				return exitWith(1, "run %s has no valid approval: %v", runID, err)
			}
			in, err := initial.ReadInputs(run)
			if err != nil {
				return exitWith(1, "run %s: %v", runID, err)
			}
			return executeRun(cmd, env, run, a, in, asJSON, !asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON event per line")
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "the checkout whose pending run to apply when RUN is not given")
	return cmd
}

// onlyPending finds the one approved, unfinished run of the checkout.
func onlyPending(ctx context.Context, env planEnv, root, dir string) (string, error) {
	git, err := env.git()
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	wt, err := local.Discover(ctx, git, dir)
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	ids, err := initial.Pending(root, wt.Root)
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	switch len(ids) {
	case 0:
		return "", exitWith(1, "no approved plan is waiting for %s; approve one with `gh-prloop plan`", wt.Root)
	case 1:
		return ids[0], nil
	}
	return "", exitWith(2, "%d approved plans are waiting for %s; name one: %s", len(ids), wt.Root, strings.Join(ids, ", "))
}
