package main

import (
	"fmt"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/spf13/cobra"
)

// clientFactory builds the GitHub client for a command; the demo swaps in one
// pointed at the loopback simulator, and nothing else differs.
type clientFactory func(cmd *cobra.Command) (*ghclient.Client, error)

func defaultClient(cmd *cobra.Command) (*ghclient.Client, error) {
	return ghclient.New(ghclient.Options{OnWait: waitNotice(cmd)})
}

// waitNotice says on stderr why the tool is pausing (rate limits), so a long
// wait never looks like a hang.
func waitNotice(cmd *cobra.Command) func(string, time.Duration) {
	return func(reason string, d time.Duration) {
		fmt.Fprintf(cmd.ErrOrStderr(), "gh-prloop: %s; waiting %s\n", reason, d.Round(time.Second))
	}
}
