package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/cli/go-gh/v2/pkg/auth"
	"github.com/cli/go-gh/v2/pkg/repository"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/inspect"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/tui/report"
	"github.com/spf13/cobra"
)

func newReportCmd(newClient clientFactory) *cobra.Command {
	var (
		repoFlag string
		asJSON   bool
		watch    int
		saveObs  string
		replay   string
	)
	cmd := &cobra.Command{
		Use:   "report [<number> | <url>] [--repo owner/name] [--json] [--watch[=SECONDS]] [--save-observation FILE] | --replay FILE [--json]",
		Short: "Classify a pull request's Codex review state, read-only",
		Long: `Observe a pull request, classify the Codex bot's responses, the review threads
and the merge gates, and run the evaluator in report-only mode. Nothing is
written to GitHub or to the checkout. Without an argument, the open pull
request of the checked-out branch is used.

Without --json, a terminal shows the report console; --watch refreshes it every
SECONDS (default 30); refreshing an unchanged pull request costs no
rate-limited REST request and, while each of its lists fits in one page (100
items), at most one GraphQL point.

--save-observation FILE writes the complete raw observation the report was
classified from (docs/observation.md); attach it to a bug report. --replay FILE
classifies such a file offline, with the same console, plain and --json output,
without a token or network.`,
		Example: "  gh-prloop report 42\n  gh-prloop report https://github.com/octo-org/widgets/pull/42 --json\n  gh-prloop report 42 --repo octo-org/widgets --watch=10\n" +
			"  gh-prloop report 42 --save-observation pr42.json\n  gh-prloop report --replay pr42.json --json",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && cmd.Flags().Changed("watch") {
				return exitWith(2, "--json and --watch cannot be combined")
			}
			if watch <= 0 {
				return exitWith(2, "--watch takes a positive number of seconds, got %d", watch)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			if cmd.Flags().Changed("replay") {
				return runReplay(ctx, cmd, args, replay, asJSON)
			}
			c, err := newClient(cmd)
			if err != nil {
				return authError(err)
			}
			var repo ghclient.Repo
			var number int64
			if len(args) == 0 {
				repo, number, err = prForCurrentBranch(ctx, c, repoFlag)
			} else {
				repo, number, err = resolvePR(c, repoFlag, args[0])
				if err != nil {
					err = usageError{err} // resolving an argument reads nothing remote
				}
			}
			if err != nil {
				return resolveError(err)
			}
			var mu sync.Mutex
			lastRequest := "" // a refresh reads the same request's reactions in its one query
			observe := func(ctx context.Context) (*inspect.Result, error) {
				mu.Lock()
				defer mu.Unlock()
				r, err := inspect.ObserveWithRequest(ctx, c, repo, number, lastRequest)
				if err == nil {
					lastRequest = r.RequestNodeID
				}
				if err == nil && saveObs != "" {
					err = inspect.SaveObservation(saveObs, r.Obs)
				}
				return r, err
			}
			if asJSON {
				r, err := observe(ctx)
				if err != nil {
					return observeError(err)
				}
				return writeJSON(cmd.OutOrStdout(), r.JSON())
			}
			fetch := func(ctx context.Context) (report.View, error) {
				r, err := observe(ctx)
				if err != nil {
					return report.View{}, err
				}
				return r.View(), nil
			}
			err = report.Run(ctx, report.Options{
				Fetch: fetch, Watch: cmd.Flags().Changed("watch"), Interval: time.Duration(watch) * time.Second,
				Out: cmd.OutOrStdout(), In: keyboard(cmd),
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
	cmd.Flags().StringVarP(&repoFlag, "repo", "R", "", "repository as owner/name (default: the current checkout's)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report-only state and the evaluator's result as JSON")
	cmd.Flags().IntVar(&watch, "watch", 30, "refresh every SECONDS")
	cmd.Flags().Lookup("watch").NoOptDefVal = "30"
	cmd.Flags().StringVar(&saveObs, "save-observation", "", "also write the raw observation to FILE (see docs/observation.md)")
	cmd.Flags().StringVar(&replay, "replay", "", "classify a saved observation FILE offline instead of reading GitHub")
	return cmd
}

// runReplay is `report --replay FILE`: the saved observation goes through
// the same classification, evaluator and output as a live one. It reads
// nothing remote, so it takes no pull request, repository, watch or save.
func runReplay(ctx context.Context, cmd *cobra.Command, args []string, file string, asJSON bool) error {
	for _, f := range []string{"repo", "watch", "save-observation"} {
		if cmd.Flags().Changed(f) {
			return exitWith(2, "--replay cannot be combined with --%s", f)
		}
	}
	if len(args) > 0 {
		return exitWith(2, "--replay takes no pull request argument: the saved observation names its pull request")
	}
	f, err := os.Open(file)
	if err != nil {
		return exitWith(2, "--replay: %v", err)
	}
	obs, err := inspect.LoadObservation(f)
	f.Close()
	if err != nil {
		return exitWith(2, "--replay %s: %v", file, err)
	}
	r, err := inspect.Replay(obs)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), r.JSON())
	}
	err = report.Run(ctx, report.Options{
		Fetch: func(context.Context) (report.View, error) { return r.View(), nil },
		Out:   cmd.OutOrStdout(), In: keyboard(cmd),
	})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	if err != nil {
		return exitWith(1, "%v", err)
	}
	return nil
}

// prForCurrentBranch finds the one open pull request whose head is the
// checked-out branch, as `gh pr view` does without an argument.
func prForCurrentBranch(ctx context.Context, c *ghclient.Client, repoFlag string) (ghclient.Repo, int64, error) {
	repo, err := currentRepo(repoFlag)
	if err != nil {
		return repo, 0, usageError{err}
	}
	git, err := gitx.New(gitx.Options{PassEnv: os.Getenv})
	if err != nil {
		return repo, 0, err
	}
	branch, err := local.CurrentBranch(ctx, git, ".")
	if err != nil || branch == "" {
		return repo, 0, usageError{fmt.Errorf("no pull request number or URL given and no branch checked out to find one by")}
	}
	open, _, err := c.OpenPRsForHead(ctx, repo, repo.Owner, branch)
	if err != nil {
		return repo, 0, err
	}
	switch len(open) {
	case 0:
		return repo, 0, usageError{fmt.Errorf("no open pull request for branch %q in %s; pass a number or URL", branch, repo)}
	case 1:
		return repo, open[0].Number, nil
	}
	return repo, 0, usageError{fmt.Errorf("%d open pull requests for branch %q in %s; pass a number or URL", len(open), branch, repo)}
}

func currentRepo(repoFlag string) (ghclient.Repo, error) {
	if repoFlag != "" {
		return ghclient.ParseRepo(repoFlag)
	}
	// GH_REPO first, as gh does; then the checkout's remotes, read through
	// the sanitized git runner (not go-gh's repository.Current, which runs
	// git with the user's whole environment and configuration).
	if v := os.Getenv("GH_REPO"); v != "" {
		cur, err := repository.Parse(v)
		if err != nil {
			return ghclient.Repo{}, fmt.Errorf("GH_REPO: %w", err)
		}
		return ghclient.ParseRepo(cur.Owner + "/" + cur.Name)
	}
	git, err := gitx.New(gitx.Options{PassEnv: os.Getenv})
	if err != nil {
		return ghclient.Repo{}, err
	}
	cur, err := local.CurrentRepository(context.Background(), git, ".", auth.KnownHosts())
	if err != nil {
		return ghclient.Repo{}, fmt.Errorf("cannot tell which repository to use (%v); pass --repo owner/name", err)
	}
	return ghclient.ParseRepo(cur.Owner + "/" + cur.Name)
}

// resolvePR turns "42" or a PR URL into a repository and number; a bare number
// takes the repository from --repo, else from the current checkout as gh does.
func resolvePR(c *ghclient.Client, repoFlag, arg string) (ghclient.Repo, int64, error) {
	if n, err := strconv.ParseInt(arg, 10, 64); err == nil {
		if n <= 0 {
			return ghclient.Repo{}, 0, fmt.Errorf("pull request number must be positive, got %d", n)
		}
		r, err := currentRepo(repoFlag)
		return r, n, err
	}
	if repoFlag != "" {
		return ghclient.Repo{}, 0, fmt.Errorf("--repo cannot be combined with a pull request URL")
	}
	return c.ResolvePRURL(arg)
}

// usageError is a mistake in what the user asked for (exit 2), as opposed
// to a failure to read GitHub (exit 1, or 4 without a token).
type usageError struct{ error }

func resolveError(err error) error {
	var u usageError
	if errors.As(err, &u) {
		return exitWith(2, "%v", u.error)
	}
	return observeError(err)
}

// authError maps a missing token to gh's exit status 4.
func authError(err error) error {
	if errors.Is(err, ghclient.ErrNoToken) {
		return exitWith(4, "%v", err)
	}
	return exitWith(1, "%v", err)
}

// observeError keeps gh's convention: 1 for a failed observation.
func observeError(err error) error {
	if errors.Is(err, ghclient.ErrNoToken) {
		return exitWith(4, "%v", err)
	}
	return exitWith(1, "%v", err)
}
