package main

import (
	"github.com/prloop/gh-prloop/core/entrypoint"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/spf13/cobra"
)

func newEvaluateCmd() *cobra.Command {
	var initial, prompt, state bool
	cmd := &cobra.Command{
		Use:   "evaluate (--initial | --prompt | --state) [FILE|-]",
		Short: "Validate a plan document or evaluate a recurring state",
		Long: `Validate an initial document (--initial), a bootstrap prompt document (--prompt),
or evaluate one recurring state (--state). Prints one JSON object.

Exit status: 0 valid / an action was emitted, 1 invalid document or inconsistent
state (every error is listed), 2 usage or I/O error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.MaximumNArgs(1)(cmd, args); err != nil {
				return evaluateUsage(cmd, "", "usage", err.Error())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, n := "", 0
			for _, f := range []struct {
				on   bool
				kind string
			}{{initial, entrypoint.KindInitial}, {prompt, entrypoint.KindPrompt}, {state, entrypoint.KindState}} {
				if f.on {
					kind, n = f.kind, n+1
				}
			}
			if n != 1 {
				return evaluateUsage(cmd, kind, "usage", "exactly one of --initial, --prompt or --state is required")
			}
			data, err := readInput(cmd, args)
			if err != nil {
				return evaluateUsage(cmd, kind, "io", err.Error())
			}
			out, code := entrypoint.Run(kind, data)
			if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
				return exitWith(2, "write: %v", err)
			}
			if code != 0 {
				return silentExit(code)
			}
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return evaluateUsage(c, "", "usage", flagErrorText(err))
	})
	cmd.Flags().BoolVar(&initial, "initial", false, "validate an initial document (snapshot, manifest, plan hash)")
	cmd.Flags().BoolVar(&prompt, "prompt", false, "validate a bootstrap prompt document and render the prompt")
	cmd.Flags().BoolVar(&state, "state", false, "evaluate one recurring state and emit the next action")
	return cmd
}

// evaluateUsage keeps PROTOCOL §4's promise that evaluate always prints one
// JSON object, also for a usage or I/O error (exit 2); the message goes to
// stderr as well, for a human.
func evaluateUsage(cmd *cobra.Command, kind, code, msg string) error {
	out := entrypoint.Output{Kind: kind, Errors: problems.List{{Path: "", Code: code, Message: msg}}}
	if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
		return exitWith(2, "write: %v", err)
	}
	if code == "io" {
		return exitWith(2, "%s", msg)
	}
	return usageExit(cmd, "%s", msg)
}
