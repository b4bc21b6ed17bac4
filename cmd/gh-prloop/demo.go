package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghclient/loopback"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
	"github.com/prloop/gh-prloop/tui/report"
	"github.com/spf13/cobra"
)

// demoToken is the only token the demo's simulator accepts. It is not a
// credential: nothing outside this process ever sees it.
const demoToken = "ghp_prloopDemoToken00000000000000000000"

// Timing of the demo's second act on the wall clock: the author pushes a
// fix and asks again after demoFollowUpAfter, and Codex takes one step
// (👀, summary Running, zero findings, summary Completed) every demoStep.
const (
	demoFollowUpAfter = 20 * time.Second
	demoStep          = 5 * time.Second
)

// newDemoCmd is `gh-prloop demo`: the report console on a pull request the
// scripted Codex has reviewed, served by the simulator in this process. No
// account, no network: the client is the production one, built through a
// clientFactory like every command's, but its transport is pinned to the
// simulator on 127.0.0.1.
func newDemoCmd() *cobra.Command {
	var (
		asJSON bool
		watch  int
	)
	cmd := &cobra.Command{
		Use:    "demo [--json] [--watch[=SECONDS]]",
		Short:  "Show the report console on a simulated pull request (no account, no network)",
		Hidden: true,
		Long: `Start the GitHub simulator in this process with the demo repository
octo-org/widgets, whose pull request #42 Codex has reviewed with three
findings, and open the report console on it.

On a terminal the console is interactive (r refreshes, q quits). After
about 20 seconds the simulated author pushes a fix and asks Codex again;
refresh (or run with --watch) to watch Codex react, review and answer with
zero findings. Without a terminal the report is printed once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && cmd.Flags().Changed("watch") {
				return usageExit(cmd, "--json and --watch cannot be combined")
			}
			if cmd.Flags().Changed("watch") && watch <= 0 {
				return usageExit(cmd, "--watch takes a positive number of seconds, got %d", watch)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()

			status := report.NewStatus(cmd.ErrOrStderr())
			defer status.Close()
			cmd.SetContext(withStatus(ctx, status))
			sim := ghsim.New(ghsim.Options{})
			defer sim.Close()
			pr := ghsim.SeedDemo(sim)
			sim.AddToken(demoToken, sim.Viewer())
			sim.Start()

			c, err := demoClient(sim.URL())(cmd)
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			repo, err := ghclient.ParseRepo(ghsim.DemoRepo)
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			if asJSON {
				r, err := inspect.Observe(ctx, c, repo, ghsim.DemoPR)
				if err != nil {
					return observeError(err)
				}
				return writeJSON(cmd.OutOrStdout(), r.JSON())
			}

			interactive := isTerminal(cmd.OutOrStdout()) && stdinIsTerminal(cmd)
			if interactive {
				second := time.AfterFunc(demoFollowUpAfter, func() { ghsim.DemoFollowUp(sim, pr, demoStep) })
				defer second.Stop()
			}
			fetch := func(ctx context.Context) (report.View, error) {
				r, err := inspect.Observe(ctx, c, repo, ghsim.DemoPR)
				if err != nil {
					return report.View{}, plainErr{err}
				}
				return r.View(), nil
			}
			err = report.Run(ctx, report.Options{
				Fetch: fetch, Watch: interactive && cmd.Flags().Changed("watch"), Interval: time.Duration(watch) * time.Second,
				Out: cmd.OutOrStdout(), Plain: !interactive,
				Repository: ghsim.DemoRepo, Number: ghsim.DemoPR, Simulated: true, Status: status,
			})
			if errors.Is(err, context.Canceled) {
				return nil
			}
			if err != nil {
				return observeError(err)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report-only state and the evaluator's result as JSON")
	cmd.Flags().IntVar(&watch, "watch", 0, "keep refreshing every `SECONDS` (off unless given; 5 when given without a value; interactive only)")
	cmd.Flags().Lookup("watch").NoOptDefVal = "5"
	cmd.AddCommand(newDemoPlanCmd(), newDemoStartCmd()) // demo_plan.go: the approval console's demo
	return cmd
}

// demoClient is the clientFactory of the demo: the production client with
// the loopback transport to the in-process simulator and the demo token.
func demoClient(target string) clientFactory {
	return func(cmd *cobra.Command) (*ghclient.Client, error) {
		lb, err := loopback.New(target)
		if err != nil {
			return nil, err
		}
		return ghclient.New(ghclient.Options{Host: "github.com", Token: demoToken, BaseTransport: lb, OnWait: waitNotice(cmd)})
	}
}

// stdinIsTerminal: the console needs a keyboard. `make demo </dev/null`
// (CI, scripts) gets the plain report instead of a console that cannot be
// quit.
func stdinIsTerminal(cmd *cobra.Command) bool {
	f, ok := cmd.InOrStdin().(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
