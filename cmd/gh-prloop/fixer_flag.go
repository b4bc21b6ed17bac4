package main

import (
	"context"

	"github.com/google/shlex"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// parseFixer splits `--fixer` into an argv the way a shell would split
// words and quotes, without ever running a shell. An autonomous loop has
// no human to edit the code, so it cannot start without a fixer: a usage
// error (exit 2) before any network.
func parseFixer(cmd *cobra.Command, mode, line string) ([]string, error) {
	if line == "" {
		if mode == policy.ModeAutonomous {
			return nil, exitWith(2, "--mode autonomous needs --fixer 'COMMAND ARGS…' (the program that fixes Codex findings)\nRun '%s --help' for usage.", cmd.CommandPath())
		}
		return nil, nil
	}
	argv, err := shlex.Split(line)
	if err != nil {
		return nil, exitWith(2, "--fixer: %v", err)
	}
	if len(argv) == 0 {
		return nil, exitWith(2, "--fixer: no program given")
	}
	return argv, nil
}

// storeFixer records the fixer argv in the run under the run's lock.
func storeFixer(ctx context.Context, run *statestore.Run, argv []string) error {
	unlock, err := run.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return wakeup.WriteFixer(run, argv)
}
