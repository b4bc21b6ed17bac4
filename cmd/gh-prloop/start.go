package main

import (
	"context"
	"fmt"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

func newStartCmd(env planEnv) *cobra.Command {
	var (
		in       planner.Inputs
		bodyFile string
		fixer    string
		asJSON   bool
		noWatch  bool
	)
	cmd := &cobra.Command{
		Use:   "start [plan flags]",
		Short: "Plan, approve and execute the initial plan in one session",
		Long: `Build the initial plan from this checkout (as plan does), have it approved, and
execute it (as apply does): commit, push, open the pull request ready for
review, ask Codex for a review, and leave an ACTIVE automation whose
wakeups continue the loop.

approval-gated (default) opens the approval console: type the exact plan
hash to approve; it needs a terminal (otherwise use plan, then apply).
--mode autonomous needs no typed hash: the plan is validated when built and
again, rebuilt from fresh observations, immediately before the first side
effect, and the two hashes must be equal. It needs --fixer: the command the
loop runs on Codex findings, split into words like a shell line (quotes
group) but never run by a shell; it is recorded with the run.

Ctrl+C during execution stops between operations and says how to resume
(gh-prloop apply RUN). --json prints the execution's events, one per line.

On a terminal, once the plan is executed, start becomes the loop's watch
console (as gh-prloop watch KEY): it drives the wakeups, opens the approval
screen for each remediation and finalization plan, and shows the loop until
you press q (closing it stops nothing: the schedule's wakeups carry on).
--no-watch, --json or no terminal end start when execution ends.

Exit status: 0 done, 1 drift, halt or error, 2 cancelled, stopped or usage
error, 4 not logged in.`,
		Example: "  gh-prloop start --title 'Fix the parser'\n  gh-prloop start --mode autonomous --fixer 'my-fixer --strict' --title 'Fix the parser' --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if bodyFile != "" {
				b, err := readBodyFile(cmd, bodyFile)
				if err != nil {
					return err
				}
				in.Body = b
			}
			in.Host = env.host
			argv, err := parseFixer(cmd, in.Mode, fixer)
			if err != nil {
				return err
			}
			return runStart(cmd.Context(), cmd, env, in, argv, asJSON, startWatches(cmd, asJSON, noWatch))
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Mode, "mode", policy.ModeApprovalGated, "approval-gated or autonomous")
	f.StringVarP(&in.Title, "title", "t", "", "title of a new pull request (a reused one keeps its own)")
	f.StringVar(&fixer, "fixer", "", "fixer `command` the loop runs on Codex findings (split like a shell line, never run by one); required with --mode autonomous")
	f.StringVarP(&bodyFile, "body-file", "F", "", "read the new pull request's body from `file` (- for stdin)")
	f.StringArrayVar(&in.Validate, "validate", nil, "validation `command`, run before the commit; repeatable, kept in order")
	f.StringVar(&in.Remote, "remote", "", "remote to use (default: the one the current branch tracks)")
	f.StringVarP(&in.Base, "base", "B", "", "base branch (default: the remote's default branch)")
	f.StringVarP(&in.Head, "head", "H", "", "head branch (default: the current branch)")
	f.StringVarP(&in.Dir, "dir", "C", ".", "run as if started in `dir`")
	f.BoolVar(&asJSON, "json", false, "print the execution's events as JSON, one per line")
	f.BoolVar(&noWatch, "no-watch", false, "end when execution ends instead of opening the loop's watch console (on a terminal)")
	return cmd
}

// runStart plans, approves and executes; with watchAfter an executed plan
// hands the terminal to the loop's watch console.
func runStart(ctx context.Context, cmd *cobra.Command, env planEnv, in planner.Inputs, fixer []string, asJSON, watchAfter bool) error {
	if in.Mode != policy.ModeAutonomous && in.Mode != policy.ModeApprovalGated {
		return exitWith(2, "--mode must be approval-gated or autonomous, got %q", in.Mode)
	}
	gated := in.Mode == policy.ModeApprovalGated
	if gated && !(stdinIsTerminal(cmd) && isTerminal(cmd.OutOrStdout())) {
		return exitWith(2, "approval-gated start needs a terminal to type the plan hash; use `gh-prloop plan` then `gh-prloop apply`, or --mode autonomous")
	}
	c, git, deps, runID, err := planDeps(cmd, env)
	if err != nil {
		return err
	}
	if !asJSON && isTerminal(cmd.ErrOrStderr()) {
		fmt.Fprintln(cmd.ErrOrStderr(), "Observing the checkout and GitHub…")
	}
	// First validation: Build runs core's --initial on what it built.
	p, err := planner.Build(ctx, deps, in, runID)
	if err != nil {
		return planError(err)
	}
	login, viewerID, err := c.Viewer(ctx)
	if err != nil {
		return observeError(err)
	}
	if gated {
		view, err := initialView(ctx, git, p, login, viewerID)
		if err != nil {
			return err
		}
		record := func(ctx context.Context) (string, error) {
			return recordApproval(ctx, env, p, in, runID, viewerID, login)
		}
		outcome, err := approval.Run(ctx, approval.Options{View: view, Recheck: initialRecheck(deps, in, runID), Record: record, In: keyboard(cmd), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()})
		if err != nil && outcome == approval.Failed {
			return exitWith(1, "%v", err)
		}
		if outcome != approval.Approved {
			return silentExit(outcome.ExitCode())
		}
	} else {
		// autonomous: the first validated hash is recorded as the one the
		// rebuild before fetch-base must reproduce; the account that
		// started the session stands as its approver.
		if _, err := recordApproval(ctx, env, p, in, runID, viewerID, login); err != nil {
			return exitWith(1, "%v", err)
		}
		if !asJSON {
			s := p.Doc.InitialSnapshot
			fmt.Fprintln(cmd.OutOrStdout(), sanitize.Text(fmt.Sprintf("autonomous: plan %s validated for %s (%s <- %s), run %s; executing %d operations",
				p.PlanHash, s.Repository, s.BaseBranch, s.HeadBranch, runID, len(p.Doc.InitialManifest.Operations))))
		}
	}
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	run, err := statestore.OpenPlan(root, runID)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	if fixer != nil {
		// Recorded with the run before any side effect: the loop's first
		// wakeup copies it into the checkpoint.
		if err := storeFixer(ctx, run, fixer); err != nil {
			return exitWith(1, "recording the fixer: %v", err)
		}
	}
	a, err := run.ReadApproval()
	if err != nil {
		return exitWith(1, "%v", err)
	}
	recorded, err := initial.ReadInputs(run)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	if err := executeRun(cmd, env, run, a, recorded, asJSON, !asJSON && !watchAfter); err != nil || !watchAfter {
		return err
	}
	return watchStarted(cmd, env, runID)
}
