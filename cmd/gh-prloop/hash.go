package main

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/spf13/cobra"
)

func newHashCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "hash [FILE|-]",
		Short: "Print the lowercase SHA-256 of a JSON document's canonical form",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readInput(cmd, args)
			if err != nil {
				return err
			}
			// Streamed into the digest: a large document never has a
			// second, canonical copy in memory.
			sum, err := canon.HashDocument(data)
			if err != nil {
				return exitWith(1, "%v", err)
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), sum)
			return err
		},
	}
}

func newCanonicalCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "canonical [FILE|-]",
		Short: "Print a JSON document's canonical bytes (sorted keys, compact, UTF-8)",
		Long:  "Print the exact bytes that are hashed: Python's json.dumps with sort_keys,\ncompact separators and ensure_ascii=False, UTF-8 encoded. No trailing newline\nis added, so the output hashes to what `gh-prloop hash` prints.",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := canonicalOf(cmd, args)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(b)
			return err
		},
	}
}

// canonicalOf reads and strictly decodes the input; a document that is not
// strict JSON is an invalid document (exit 1), never silently repaired.
func canonicalOf(cmd *cobra.Command, args []string) ([]byte, error) {
	data, err := readInput(cmd, args)
	if err != nil {
		return nil, err
	}
	b, err := canon.Canonicalize(data)
	if err != nil {
		return nil, exitWith(1, "%v", err)
	}
	return b, nil
}
