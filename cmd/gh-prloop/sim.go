package main

import (
	"encoding/json"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/spf13/cobra"
)

// newSimCmd is `gh-prloop sim`: the loopback GitHub world as a separate
// process, for scripts and real-process tests of start/apply.
func newSimCmd() *cobra.Command {
	var (
		dir                  string
		scenario             string
		timeScale            float64
		botDelay, checkDelay time.Duration
	)
	cmd := &cobra.Command{
		Use:    "sim [--dir DIR] [--scenario LIST] [--time-scale N] [--bot-delay D]",
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
reactions, pushes, branches, check_runs, and now), so a script can count what
a run did. The API also takes what a person does on GitHub, with the token:
PATCH <api_url>/repos/octo-org/widgets/pulls/N {"state":"closed"} closes the
pull request, PUT <api_url>/repos/octo-org/widgets/pulls/N/merge merges it (a
real merge commit on main in the git server).

The scripted Codex bot answers each "@codex review" with the next outcome of
--scenario (comma-separated): findings (a review with inline threads on real
lines of the checkout, new ones each round), clean (an explicit "Didn't find
any major issues" comment), clean-by-reaction (👍 + Completed summary only),
findings-comment (findings in an issue comment), notice-limit, notice-error,
silence (never answers), and the other notices (notice-environment,
notice-account, notice-deactivated, failed-summary). After the list it answers
clean. After every push CI runs a check (pending, then success --check-delay
later; --check-delay 0 turns this off) and mergeability is recomputed.

--time-scale N runs the simulator's clock N times faster than the wall clock
(every timestamp it writes follows it; GET <api_url>/_sim/clock reports it and
env carries GH_PRLOOP_SIM_CLOCK so gh-prloop's deadlines agree with it);
--bot-delay and --check-delay are simulated durations.

"gh-prloop sim fix FILE" is the scripted fixer (usable as --fixer).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kinds, err := ghsim.ParseScenarioList(scenario)
			if err != nil {
				return exitWith(2, "sim: --scenario: %v", err)
			}
			if timeScale <= 0 || timeScale > ghsim.MaxTimeScale {
				return exitWith(2, "sim: --time-scale %v: want a number in (0, %d]", timeScale, ghsim.MaxTimeScale)
			}
			if botDelay < time.Second || (checkDelay != 0 && checkDelay < time.Second) {
				return exitWith(2, "sim: --bot-delay must be at least 1s, --check-delay 0 (no CI) or at least 1s")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			var gates *ghsim.GateScript
			if checkDelay > 0 {
				g := standalone.DefaultGates()
				g.CheckDelay = checkDelay
				gates = &g
			}
			sim, err := standalone.Start(ctx, standalone.Options{
				Dir: dir, Scenarios: kinds, TimeScale: timeScale, BotDelay: botDelay, Gates: gates,
			})
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
	cmd.Flags().StringVar(&scenario, "scenario", defaultScenarioList(), "the Codex bot's answer to each review request, in order (comma-separated `list`)")
	cmd.Flags().Float64Var(&timeScale, "time-scale", 1, "simulated seconds per real second")
	cmd.Flags().DurationVar(&botDelay, "bot-delay", 30*time.Second, "simulated time between the Codex bot's steps")
	cmd.Flags().DurationVar(&checkDelay, "check-delay", 2*time.Minute, "simulated time from a push until its CI check completes (0: no scripted CI, the gates never move)")
	cmd.AddCommand(newSimFixCmd())
	return cmd
}

func defaultScenarioList() string {
	var names []string
	for _, k := range standalone.DefaultScenarios() {
		names = append(names, k.String())
	}
	return strings.Join(names, ",")
}
