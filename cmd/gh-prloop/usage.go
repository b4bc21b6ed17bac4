package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// One exit-code rule for every command (gh's): a usage error — an unknown
// command, a wrong number of arguments, an unknown flag, a bad flag value, a
// missing required flag — exits 2 with the command's help hint, and is
// found before anything touches the network, the checkout or the
// credentials. applyUsageRules installs the rule on the whole command tree
// once it is built, so a command added later gets it by construction.

// usageExit is a usage error of cmd: exit 2, the message, then
// "Run 'gh-prloop CMD --help' for usage.".
func usageExit(cmd *cobra.Command, format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...), usage: cmd.CommandPath()}
}

// applyUsageRules walks the tree under root. Cobra checks arguments before
// any hook or RunE, so the argument check is where the required flags and
// flag groups (which cobra would check only after the PreRun hooks) and
// the --jq/--template pairing are checked too.
func applyUsageRules(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageExit(c, "%s", flagErrorText(err))
	})
	// A root without RunE is not runnable, and cobra would answer an
	// unknown command with the help and exit 0.
	if root.RunE == nil && root.Run == nil {
		root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	walk(root, func(c *cobra.Command) {
		if c.Annotations[usageRulesOn] != "" {
			return // already installed: a test may apply the rules again after replacing a command
		}
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[usageRulesOn] = "1"
		args := c.Args
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := checkArgs(args, cmd, a); err != nil {
				var ee *exitError
				if errors.As(err, &ee) { // the command said it its own way
					if ee.code == 2 {
						ee.usage = cmd.CommandPath()
					}
					return ee
				}
				return usageExit(cmd, "%s", oneLine(err.Error()))
			}
			if err := cmd.ValidateRequiredFlags(); err != nil {
				return usageExit(cmd, "%s", oneLine(err.Error()))
			}
			if err := cmd.ValidateFlagGroups(); err != nil {
				return usageExit(cmd, "%s", oneLine(err.Error()))
			}
			return checkOutputFlags(cmd)
		}
		addOutputFlags(c)
	})
}

const usageRulesOn = "prloop-usage-rules"

// checkArgs is cobra's own check: the command's validator, or, when it has
// none, cobra's default (a root with subcommands takes no arguments; any
// other command takes whatever it is given).
func checkArgs(v cobra.PositionalArgs, cmd *cobra.Command, a []string) error {
	if v != nil {
		return v(cmd, a)
	}
	if !cmd.HasParent() && cmd.HasSubCommands() && len(a) > 0 {
		return fmt.Errorf("unknown command %q for %q", a[0], cmd.CommandPath())
	}
	return nil
}

func walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, s := range c.Commands() {
		walk(s, f)
	}
}

// flagErrorText says what pflag says, without Go's parser wording
// ("strconv.ParseInt: parsing "x": invalid syntax").
func flagErrorText(err error) string {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		return fmt.Sprintf("invalid value %q for --%s: %s", iv.GetValue(), f.Name, wantedValue(f.Value.Type()))
	}
	return oneLine(err.Error())
}

func wantedValue(typ string) string {
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return "expected a whole number"
	case "bool":
		return "expected true or false"
	case "duration":
		return "expected a duration such as 30s or 5m"
	case "float32", "float64":
		return "expected a number"
	}
	return "expected a " + typ
}

// oneLine keeps a message on one line: the line it is printed on is the
// whole message, and a script reading stderr line by line gets all of it.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
