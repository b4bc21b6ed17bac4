package main

import (
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/statestore"
)

// startWatches reports whether a start that executed its plan goes on as
// the loop's watch console (issue 9 item 1): only a person at a terminal
// can use one, so --json, a pipe, a redirected stdin and --no-watch end
// start where execution ends, as before.
func startWatches(cmd *cobra.Command, asJSON, noWatch bool) bool {
	return !noWatch && !asJSON && isTerminal(cmd.OutOrStdout()) && stdinIsTerminal(cmd)
}

// watchStarted opens the watch console of the loop that run runID just
// bootstrapped, through the very entry point of `gh-prloop watch KEY`
// (same wiring, same wakeups, same approval screens), on start's terminal.
func watchStarted(cmd *cobra.Command, env planEnv, runID string) error {
	key, err := loopOfRun(cmd, env, runID)
	if err != nil {
		return err
	}
	w := newWatchCmd(env)
	w.SetContext(cmd.Context())
	w.SetIn(cmd.InOrStdin())
	w.SetOut(cmd.OutOrStdout())
	w.SetErr(cmd.ErrOrStderr())
	return w.RunE(w, []string{key})
}

// loopOfRun is the key of the automation run runID bootstrapped: the
// registry holds exactly one per run.
func loopOfRun(cmd *cobra.Command, env planEnv, runID string) (string, error) {
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	reg, err := automations.Open(root)
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	recs, err := reg.List(cmd.Context())
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	for _, r := range recs {
		if r.RunID == runID {
			return r.Key, nil
		}
	}
	return "", exitWith(1, "run %s left no automation in the registry %s; nothing to watch", runID, reg.Path())
}
