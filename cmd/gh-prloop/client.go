package main

import (
	"fmt"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// clientFactory builds the GitHub client for a command; the demo swaps in one
// pointed at the loopback simulator, and nothing else differs.
type clientFactory func(cmd *cobra.Command) (*ghclient.Client, error)

func defaultClient(cmd *cobra.Command) (*ghclient.Client, error) {
	return ghclient.New(ghclient.Options{OnWait: waitNotice(cmd)})
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
