package main

import (
	"fmt"
	"sort"
	"text/tabwriter"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/spf13/cobra"
)

func newPolicyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "policy [--json]",
		Short: "Print the v1 policy constants the evaluator enforces",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t := policy.Table()
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), t)
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 2, 2, ' ', 0)
			for _, k := range keys {
				if s, ok := t[k].(string); ok {
					fmt.Fprintf(tw, "%s\t%q\n", k, s)
				} else {
					fmt.Fprintf(tw, "%s\t%v\n", k, t[k])
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
