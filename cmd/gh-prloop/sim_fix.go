package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/prloop/gh-prloop/fixer"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// newSimFixCmd is `gh-prloop sim fix FILE`: the scripted fixer. The loop
// runs a --fixer command with the checkout as its working directory and
// the fixer-contract-v1 file as the last argument; this one inserts one
// deterministic note per thread, in the working directory only.
func newSimFixCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "fix FILE",
		Short: "The scripted fixer: a deterministic change to each thread's file (fixer contract v1)",
		Long: `Read FILE (fixer contract v1: a JSON array of actionable threads with
thread_id, path, line, start_line, priority, title and body) and, for each
thread, insert one comment line above the thread's line of its file in the
current directory, naming the thread and its title. Re-running it changes
nothing twice. Paths outside the current directory are refused. Prints one
line per thread: path:line and the thread id. Exit 1 on an invalid file or a
file that cannot be changed, 2 on usage errors.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return exitWith(2, "sim fix: want exactly one argument, the fixer input file\nRun '%s --help' for usage.", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return exitWith(1, "sim fix: %v", err)
			}
			threads, err := fixer.Decode(f)
			f.Close()
			if err != nil {
				return exitWith(1, "sim fix: %s: %v", args[0], err)
			}
			wd, err := os.Getwd()
			if err != nil {
				return exitWith(1, "sim fix: %v", err)
			}
			changes, err := fixer.ApplyScripted(wd, threads)
			out := cmd.OutOrStdout()
			for _, c := range changes {
				verb := "changed"
				if c.Skipped {
					verb = "already fixed"
				}
				fmt.Fprintf(out, "%s:%d %s (%s)\n", sanitize.Line(c.Path, 200), c.Line, verb, sanitize.Line(c.ThreadID, 80))
			}
			if err != nil {
				var ie *fixer.InputError
				if errors.As(err, &ie) {
					return exitWith(1, "sim fix: %s: %v", args[0], err)
				}
				return exitWith(1, "sim fix: %v", err)
			}
			return nil
		},
	}
}
