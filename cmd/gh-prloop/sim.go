package main

import (
	"encoding/json"
	"os/signal"
	"syscall"

	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/spf13/cobra"
)

// newSimCmd is `gh-prloop sim`: the loopback GitHub world as a separate
// process, for scripts and real-process tests of start/apply.
func newSimCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:    "sim [--dir DIR]",
		Short:  "Run the loopback GitHub simulator and its HTTPS git server until killed",
		Hidden: true,
		Long: `Start the GitHub API simulator and its HTTPS git server on 127.0.0.1, seed the
repository octo-org/widgets, and clone it into a checkout on branch
feature/retry-budget with a pending change, ready to plan. Then print one JSON
line and run until SIGINT or SIGTERM, which stop both servers and remove the
temporary directory (a --dir is kept):

  {"api_url","git_url","token","ca_file","checkout","env":{NAME: value, …}}

Setting every variable of "env" on a gh-prloop process makes its GitHub client
and its git runner use this simulator and its CA; nothing else changes, and
only loopback addresses are accepted. GET <api_url>/_sim/state returns the
whole world as JSON (pulls, issue_comments, reviews, review_comments, threads,
reactions, pushes, branches), so a script can count what a run did.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			sim, err := standalone.Start(ctx, standalone.Options{Dir: dir})
			if err != nil {
				return exitWith(1, "sim: %v", err)
			}
			defer sim.Close()
			line, err := json.Marshal(sim.Info())
			if err != nil {
				return exitWith(1, "sim: %v", err)
			}
			if _, err := cmd.OutOrStdout().Write(append(line, '\n')); err != nil {
				return exitWith(1, "sim: %v", err)
			}
			<-ctx.Done()
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "keep the checkout and repositories in `dir` (an existing directory) instead of a temporary one")
	return cmd
}
