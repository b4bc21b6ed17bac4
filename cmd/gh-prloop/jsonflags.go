package main

import (
	"bytes"
	"io"
	"os"

	"github.com/cli/go-gh/v2/pkg/jq"
	"github.com/cli/go-gh/v2/pkg/template"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/tui/theme"
)

// gh's JSON conventions on every command that has a --json flag: --jq EXPR
// filters the JSON through go-gh's jq and --template TMPL formats it through
// go-gh's template, exactly as `gh pr view --json … --jq …` does. Both are
// added by applyUsageRules, so a command gets them by having --json; the
// command itself only writes its JSON to cmd.OutOrStdout().

const (
	jqFlag       = "jq"
	templateFlag = "template"
)

// addOutputFlags gives c --jq and --template when it has a boolean --json.
// gh's shorthands (-q, -t) are added only where the command does not use
// the letter already (plan's -t is --title).
func addOutputFlags(c *cobra.Command) {
	j := c.Flags().Lookup("json")
	if j == nil || j.Value.Type() != "bool" || c.Flags().Lookup(jqFlag) != nil {
		return
	}
	short := func(s string) string {
		if c.Flags().ShorthandLookup(s) != nil {
			return ""
		}
		return s
	}
	c.Flags().StringP(jqFlag, short("q"), "", "filter the JSON output using a jq `expression`")
	c.Flags().StringP(templateFlag, short("t"), "", "format the JSON output using a Go `template`; see \"gh help formatting\"")
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		expr, tmpl := outputFlags(cmd)
		if expr == "" && tmpl == "" {
			return run(cmd, args)
		}
		return filtered(cmd, expr, tmpl, func() error { return run(cmd, args) })
	}
}

func outputFlags(cmd *cobra.Command) (expr, tmpl string) {
	if cmd.Flags().Lookup(jqFlag) == nil {
		return "", ""
	}
	expr, _ = cmd.Flags().GetString(jqFlag)
	tmpl, _ = cmd.Flags().GetString(templateFlag)
	return expr, tmpl
}

// checkOutputFlags is the usage check, run before anything else: gh's
// wording when --jq or --template comes without --json, and a parse of the
// expression or template so that a typo costs no API request.
func checkOutputFlags(cmd *cobra.Command) error {
	if cmd.Flags().Lookup(jqFlag) == nil {
		return nil
	}
	expr, tmpl := outputFlags(cmd)
	asJSON, _ := cmd.Flags().GetBool("json")
	switch {
	case cmd.Flags().Changed(jqFlag) && cmd.Flags().Changed(templateFlag):
		return usageExit(cmd, "cannot use `--jq` and `--template` together")
	case cmd.Flags().Changed(jqFlag) && !asJSON:
		return usageExit(cmd, "cannot use `--jq` without specifying `--json`")
	case cmd.Flags().Changed(templateFlag) && !asJSON:
		return usageExit(cmd, "cannot use `--template` without specifying `--json`")
	}
	if expr != "" {
		q, err := gojq.Parse(expr)
		if err == nil {
			_, err = gojq.Compile(q, gojq.WithEnvironLoader(os.Environ))
		}
		if err != nil {
			return usageExit(cmd, "invalid --jq expression: %s", oneLine(err.Error()))
		}
	}
	if tmpl != "" {
		if err := template.New(io.Discard, 80, false).Parse(tmpl); err != nil {
			return usageExit(cmd, "invalid --template: %s", oneLine(err.Error()))
		}
	}
	return nil
}

// filtered runs the command with its output captured, then writes the
// captured JSON through the jq expression or the template. What the
// command printed is filtered even when it failed (evaluate-like commands
// print a JSON error document), and the command's own error wins.
func filtered(cmd *cobra.Command, expr, tmpl string, run func() error) error {
	out := cmd.OutOrStdout()
	var buf bytes.Buffer
	cmd.SetOut(&buf)
	runErr := run()
	cmd.SetOut(out)
	if buf.Len() == 0 {
		return runErr
	}
	tty := isTerminal(out)
	color := theme.ColorEnabled(os.Getenv, tty)
	var err error
	if expr != "" {
		indent := ""
		if tty {
			indent = "  "
		}
		err = jq.EvaluateFormatted(&buf, out, expr, indent, color)
	} else {
		t := template.New(out, terminalWidth(out), color)
		if err = t.Parse(tmpl); err == nil {
			if err = t.Execute(&buf); err == nil {
				err = t.Flush()
			}
		}
	}
	if runErr != nil {
		return runErr
	}
	if err != nil {
		name := "--jq"
		if expr == "" {
			name = "--template"
		}
		return exitWith(1, "%s failed: %s", name, oneLine(err.Error()))
	}
	return nil
}
