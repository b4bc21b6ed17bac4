package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/automations/manage"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// automationsEnv is what the automations commands need from the world;
// tests supply a temporary state root, a fixed clock and a fake terminal.
type automationsEnv struct {
	getenv      func(string) string
	homeDir     func() (string, error)
	now         func() time.Time
	interactive func(cmd *cobra.Command) bool // a human can answer a question
}

func defaultAutomationsEnv() automationsEnv {
	return automationsEnv{
		getenv:  os.Getenv,
		homeDir: os.UserHomeDir,
		now:     time.Now,
		interactive: func(cmd *cobra.Command) bool {
			return stdinIsTerminal(cmd) && isTerminal(cmd.ErrOrStderr())
		},
	}
}

func (env automationsEnv) registry() (*automations.Registry, error) {
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return nil, err
	}
	return automations.Open(root)
}

// resolve opens the registry and finds the automation named by arg.
func (env automationsEnv) resolve(cmd *cobra.Command, arg string) (*automations.Registry, automations.Record, error) {
	reg, err := env.registry()
	if err != nil {
		return nil, automations.Record{}, err
	}
	recs, err := reg.List(cmd.Context())
	if err != nil {
		return nil, automations.Record{}, err
	}
	rec, err := manage.Resolve(recs, arg)
	return reg, rec, err
}

func newAutomationsCmd(env automationsEnv) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "automations <command>",
		Short: "List, inspect, pause, resume or delete the loops' automations",
		Long: `Every loop is an automation in the registry of the state directory
($GH_PRLOOP_STATE_DIR, else $XDG_STATE_HOME/gh-prloop): its key, its prompt and
its schedule, ACTIVE or PAUSED (with the reason). A scheduled wakeup only acts on
ACTIVE automations. KEY is an automation's key, its id, or its pull request as
OWNER/REPO#NUMBER (as the consoles print it).

A registry file that was edited by hand or torn is refused, naming the field;
it is never repaired automatically.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newAutomationsListCmd(env), newAutomationsShowCmd(env), newAutomationsPauseCmd(env),
		newAutomationsResumeCmd(env), newAutomationsDeleteCmd(env))
	return cmd
}

// oneKey is the argument check of the commands that act on one automation;
// a wrong count is a usage error (exit 2).
func oneKey(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return exitWith(2, "%s needs exactly one KEY (an automation's key, id or OWNER/REPO#NUMBER), got %d arguments\nRun '%s --help' for usage.", cmd.CommandPath(), len(args), cmd.CommandPath())
	}
	return nil
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) != 0 {
		return exitWith(2, "%s takes no arguments, got %q\nRun '%s --help' for usage.", cmd.CommandPath(), args, cmd.CommandPath())
	}
	return nil
}

func newAutomationsListCmd(env automationsEnv) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List every automation, sorted by key",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg, err := env.registry()
			if err != nil {
				return err
			}
			recs, err := reg.List(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), manage.JSONList(recs))
			}
			return manage.WriteTable(cmd.OutOrStdout(), recs)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the records as a JSON array")
	return cmd
}

func newAutomationsShowCmd(env automationsEnv) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show KEY [--json]",
		Short: "Show one automation, its prompt included",
		Args:  oneKey,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, rec, err := env.resolve(cmd, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), manage.JSON(rec))
			}
			return manage.WriteDetail(cmd.OutOrStdout(), rec)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON")
	return cmd
}

func newAutomationsPauseCmd(env automationsEnv) *cobra.Command {
	var reason string
	cmd := statusChangeCmd(env, "Paused", func(cmd *cobra.Command, reg *automations.Registry, key string) (automations.Record, error) {
		return reg.Pause(cmd.Context(), key, reason, env.now())
	})
	cmd.Use = "pause KEY [--reason TEXT] [--json]"
	cmd.Short = "Pause an automation: wakeups leave its loop alone until it is resumed"
	cmd.Flags().StringVar(&reason, "reason", "", "why it is paused (default \""+automations.DefaultPauseReason+"\")")
	return cmd
}

func newAutomationsResumeCmd(env automationsEnv) *cobra.Command {
	cmd := statusChangeCmd(env, "Resumed", func(cmd *cobra.Command, reg *automations.Registry, key string) (automations.Record, error) {
		return reg.Resume(cmd.Context(), key, env.now())
	})
	cmd.Use = "resume KEY [--json]"
	cmd.Short = "Resume a paused automation"
	cmd.Long = `Make a PAUSED automation ACTIVE again; its next wakeup re-reads everything and
the evaluator decides what happens. A bootstrap stub that never received its
prompt cannot be resumed: ` + "`gh-prloop apply`" + ` finishes its run.`
	return cmd
}

// statusChangeCmd is pause's and resume's body: resolve KEY, change the
// record's status, say what changed (or that it already had the status).
func statusChangeCmd(env automationsEnv, verb string, change func(*cobra.Command, *automations.Registry, string) (automations.Record, error)) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Args: oneKey,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, rec, err := env.resolve(cmd, args[0])
			if err != nil {
				return err
			}
			was := rec.Status
			if rec, err = change(cmd, reg, rec.Key); err != nil {
				return err
			}
			return printChanged(cmd, asJSON, rec, was, verb)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON")
	return cmd
}

func newAutomationsDeleteCmd(env automationsEnv) *cobra.Command {
	var asJSON, yes bool
	cmd := &cobra.Command{
		Use:   "delete KEY [--yes] [--json]",
		Short: "Delete an automation",
		Long: `Delete an automation from the registry. Deleting an ACTIVE one stops a live
loop: on a terminal you are asked to confirm; without a terminal --yes is
required (exit 2 otherwise). The run's state directory is kept.`,
		Args: oneKey,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, rec, err := env.resolve(cmd, args[0])
			if err != nil {
				return err
			}
			ok, err := manage.ConfirmDelete(rec, yes, env.interactive(cmd), cmd.InOrStdin(), cmd.ErrOrStderr())
			if errors.Is(err, manage.ErrNeedsConfirmation) {
				return exitWith(2, "%v", err)
			}
			if err != nil {
				return err
			}
			if !ok {
				return exitWith(2, "not deleted: %s", rec.Key)
			}
			if err := reg.Delete(cmd.Context(), rec.Key); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"deleted": true, "id": rec.ID, "key": rec.Key})
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "Deleted %s\n", rec.Key)
			return err
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "delete an ACTIVE automation without asking")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was deleted as JSON")
	return cmd
}

// printChanged says what pause or resume did: the new status, or that the
// automation already had it (the registry left it unchanged), and why it is
// paused.
func printChanged(cmd *cobra.Command, asJSON bool, rec automations.Record, was, verb string) error {
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), manage.JSON(rec))
	}
	msg := verb + " " + rec.Key
	if was == rec.Status {
		msg = rec.Key + " was already " + rec.Status
	}
	if rec.Reason != "" {
		msg += ": " + rec.Reason
	}
	_, err := fmt.Fprintln(cmd.OutOrStdout(), sanitize.Line(msg, 4096))
	return err
}
