package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/schedule"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// scheduleEnv builds the machine the schedule commands act on; tests
// return a temporary one with a fake service manager.
type scheduleEnv func() (schedule.Env, error)

func defaultScheduleEnv() (schedule.Env, error) {
	root, err := statestore.Root(os.Getenv, os.UserHomeDir)
	if err != nil {
		return schedule.Env{}, err
	}
	return schedule.System(root, policy.HeartbeatRRule)
}

func newScheduleCmd(env scheduleEnv) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schedule <command>",
		Short: "Install, inspect or remove the timer that runs `gh-prloop wakeup --all`",
		Long: `The loops advance when ` + "`gh-prloop wakeup --all`" + ` runs, on the policy heartbeat
(` + policy.HeartbeatRRule + `). install sets that up for your user:
a systemd user timer on Linux, a launchd agent on macOS, and elsewhere the
crontab line to add. Its output is appended to <state dir>/logs/wakeup.log.`,
		Args: noArgs,
	}
	cmd.AddCommand(
		&cobra.Command{
			Use: "install", Short: "Install and start the timer", Args: noArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				e, err := env()
				if err != nil {
					return err
				}
				res, err := schedule.Install(cmd.Context(), e)
				printResult(cmd.OutOrStdout(), res, "Wrote")
				return err
			},
		},
		&cobra.Command{
			Use: "remove", Short: "Stop and remove the timer", Args: noArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				e, err := env()
				if err != nil {
					return err
				}
				res, err := schedule.Remove(cmd.Context(), e)
				printResult(cmd.OutOrStdout(), res, "Removed")
				if err == nil && len(res.Written) == 0 && res.Platform != schedule.Cron {
					fmt.Fprintln(cmd.OutOrStdout(), "Nothing was installed.")
				}
				return err
			},
		},
		newScheduleStatusCmd(env),
	)
	return cmd
}

func newScheduleStatusCmd(env scheduleEnv) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use: "status [--json]", Short: "Say what is installed and when the wakeup last ran", Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := env()
			if err != nil {
				return err
			}
			st, err := schedule.GetStatus(cmd.Context(), e)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), statusJSON(st))
			}
			printStatus(cmd.OutOrStdout(), st)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

func statusJSON(st schedule.Status) map[string]any {
	files := []map[string]any{}
	for _, f := range st.Files {
		files = append(files, map[string]any{"path": f.Path, "present": f.Present, "current": f.Current})
	}
	m := map[string]any{
		"platform": st.Platform, "installed": st.Installed, "current": st.Current, "files": files,
		"manager": st.Manager, "last_run": st.LastRun, "last_run_from": st.LastFrom, "next_run": st.NextRun, "log_file": st.LogFile,
	}
	if st.Platform == schedule.Cron {
		m["cron_line"], m["cron_found"] = st.CronLine, st.CronFound
	}
	return m
}

func printResult(w io.Writer, res schedule.Result, verb string) {
	for _, p := range res.Written {
		fmt.Fprintf(w, "%s %s\n", verb, sanitize.Line(p, 4096))
	}
	for _, argv := range res.Ran {
		fmt.Fprintf(w, "Ran   %s\n", sanitize.Line(strings.Join(argv, " "), 4096))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "Note: %s\n", sanitize.Line(n, 4096))
	}
	if len(res.Manual) > 0 {
		fmt.Fprintln(w, "To finish, run:")
		for _, m := range res.Manual {
			fmt.Fprintf(w, "  %s\n", sanitize.Line(m, 8192))
		}
	}
	if res.LogFile != "" && verb == "Wrote" {
		fmt.Fprintf(w, "Wakeups log to %s\n", sanitize.Line(res.LogFile, 4096))
	}
}

func printStatus(w io.Writer, st schedule.Status) {
	line := func(k, v string) { fmt.Fprintf(w, "%-10s %s\n", k+":", sanitize.Line(v, 8192)) }
	state := "not installed"
	switch {
	case st.Installed && st.Current:
		state = "installed"
	case st.Installed:
		state = "installed, but not as `gh-prloop schedule install` would write it now (run it again)"
	case len(st.Files) > 0 && anyPresent(st.Files):
		state = "partly installed (run `gh-prloop schedule install` again)"
	}
	line("platform", st.Platform)
	line("schedule", state)
	for _, f := range st.Files {
		s := "missing"
		if f.Present && f.Current {
			s = "ok"
		} else if f.Present {
			s = "differs"
		}
		line("file", f.Path+" ("+s+")")
	}
	if st.Platform == schedule.Cron {
		line("crontab", st.CronLine)
	}
	if st.Manager != "" {
		line("manager", st.Manager)
	}
	if st.LastRun != "" {
		line("last run", st.LastRun+" (from "+st.LastFrom+")")
	} else {
		line("last run", "never, as far as can be seen")
	}
	if st.NextRun != "" {
		line("next run", st.NextRun)
	}
	line("log", st.LogFile)
}

func anyPresent(fs []schedule.FileStatus) bool {
	for _, f := range fs {
		if f.Present {
			return true
		}
	}
	return false
}
