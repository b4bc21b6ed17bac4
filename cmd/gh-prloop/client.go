package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/simenv"
	"github.com/prloop/gh-prloop/tui/report"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// clientFactory builds the GitHub client for a command; the demo swaps in one
// pointed at the loopback simulator, and nothing else differs.
type clientFactory func(cmd *cobra.Command) (*ghclient.Client, error)

func defaultClient(cmd *cobra.Command) (*ghclient.Client, error) {
	hook, err := simenv.FromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	if hook != nil {
		// `gh-prloop sim`'s environment: the same client, sent to the
		// loopback simulator with its token (simenv).
		opts, err := hook.ClientOptions(waitNotice(cmd))
		if err != nil {
			return nil, err
		}
		// observed_at follows the simulator's clock (--time-scale), as
		// every other time the product records does (defaultNow).
		opts.Now = defaultNow()
		return ghclient.New(opts)
	}
	return ghclient.New(ghclient.Options{OnWait: waitNotice(cmd)})
}

// defaultGit is the production git runner, or the one trusting the
// simulator's CA and helper under `gh-prloop sim`'s environment; host is
// then the simulator's git host, the only one a remote may name.
func defaultGit() (git func() (*gitx.Runner, error), host string) {
	hook, err := simenv.FromEnv(os.Getenv)
	switch {
	case err != nil:
		return func() (*gitx.Runner, error) { return nil, err }, ""
	case hook != nil:
		return func() (*gitx.Runner, error) { return gitx.New(hook.GitOptions()) }, hook.GitHost
	}
	return func() (*gitx.Runner, error) { return gitx.New(gitx.Options{PassEnv: os.Getenv}) }, ""
}

type statusKey struct{}

// withStatus routes the client's wait notices of a command to a console's
// status line instead of stderr, where they would print over the screen.
func withStatus(ctx context.Context, s *report.Status) context.Context {
	return context.WithValue(ctx, statusKey{}, s)
}

// waitNotice says why the tool is pausing (retries, rate limits), so a long
// wait never looks like a hang: on the console's status line when the
// command runs one, else on stderr.
func waitNotice(cmd *cobra.Command) func(string, time.Duration) {
	return func(reason string, d time.Duration) {
		// The reason quotes the server (a rate-limit resource header, a
		// GraphQL error message): sanitized here, where it is printed.
		msg := sanitize.Line(reason, maxNoticeCells) + "; waiting " + d.Round(time.Second).String()
		if ctx := cmd.Context(); ctx != nil {
			if s, ok := ctx.Value(statusKey{}).(*report.Status); ok && s != nil {
				s.Notify(msg)
				return
			}
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "gh-prloop:", msg)
	}
}

// maxNoticeCells bounds one wait notice's reason on stderr.
const maxNoticeCells = 240
