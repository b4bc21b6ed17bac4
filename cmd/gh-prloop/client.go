package main

import (
	"fmt"
	"os"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/simenv"
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

// waitNotice says on stderr why the tool is pausing (rate limits), so a long
// wait never looks like a hang. The reason quotes the server (a rate-limit
// resource header, a GraphQL error message), so it is sanitized here too,
// where it is printed, whatever ghclient already did.
func waitNotice(cmd *cobra.Command) func(string, time.Duration) {
	return func(reason string, d time.Duration) {
		fmt.Fprintf(cmd.ErrOrStderr(), "gh-prloop: %s; waiting %s\n", sanitize.Line(reason, maxNoticeCells), d.Round(time.Second))
	}
}

// maxNoticeCells bounds one wait notice's reason on stderr.
const maxNoticeCells = 240
