package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/prloop/gh-prloop/core/entrypoint"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/spf13/cobra"
)

// newDemoPlanCmd is `gh-prloop demo plan`: the real `plan` command on a
// seeded checkout whose GitHub is the simulator and whose remote is the
// loopback git server, both in this process. Only the planEnv differs from
// production.
func newDemoPlanCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "plan",
		Short: "Plan a seeded checkout against the simulator and open the approval console",
		Long: `Create, in a temporary directory, the repository octo-org/widgets served over
HTTPS on 127.0.0.1 and known to the GitHub simulator, clone it, and leave the
clone on branch feature/retry-budget with uncommitted changes (a modified, a
deleted and a new file). Then run ` + "`gh-prloop plan`" + ` on that clone.

On a terminal the approval console opens: approve by typing the plan hash
(it is recorded in a temporary state directory, unless $GH_PRLOOP_STATE_DIR
is set), or press esc. Without a terminal the plan is summarized and core's
verdict on the document (as ` + "`evaluate --initial`" + ` prints it) follows.
Everything is removed on exit; nothing leaves this machine.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A closed terminal (SIGHUP) must still stop the servers and
			// remove the temporary directory.
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			tmp, err := os.MkdirTemp("", "gh-prloop-demo-plan-")
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			defer os.RemoveAll(tmp)
			bed, err := testbed.New(ctx, testbed.Options{Dir: tmp})
			if err != nil {
				return exitWith(1, "demo: %v", err)
			}
			defer bed.Close()
			env := bedPlanEnv(bed, filepath.Join(tmp, "state"))
			in := demoPlanInputs(bed)
			if isTerminal(cmd.OutOrStdout()) && demoStdinIsTerminal(cmd) {
				return runPlan(ctx, cmd, env, in, nil, false)
			}
			return printDemoPlan(ctx, cmd, bed, in)
		},
	}
}

// bedPlanEnv is the planEnv of a test bed: its client and runner, its git
// server as the only host, and stateDir as the state root unless the user
// chose one.
func bedPlanEnv(bed *testbed.Bed, stateDir string) planEnv {
	tempState := stateDir
	if os.Getenv(statestore.EnvStateDir) != "" {
		tempState = "" // the user's own directory outlives the demo
	}
	return planEnv{
		tempState: tempState,
		client:    func(*cobra.Command) (*ghclient.Client, error) { return bed.Client, nil },
		git:       func() (*gitx.Runner, error) { return bed.Runner, nil },
		host:      bed.Host,
		now:       time.Now,
		getenv: func(k string) string {
			if k == statestore.EnvStateDir && os.Getenv(k) == "" {
				return stateDir
			}
			return os.Getenv(k)
		},
		homeDir: os.UserHomeDir,
	}
}

// demoPlanInputs is what a human would type in the bed's checkout. The
// validation command is the project's own test run when Go is installed
// (it always is under `make demo`); the plan binds the resolved executable.
func demoPlanInputs(bed *testbed.Bed) planner.Inputs {
	in := bed.Inputs("Add a retry budget to the HTTP client",
		"Retries 502 and 503 within a per-client budget, so that a flapping dependency cannot multiply our load.\n")
	if _, err := exec.LookPath("go"); err == nil {
		in.Validate = []string{"go test ./..."}
	}
	return in
}

func demoStdinIsTerminal(cmd *cobra.Command) bool {
	f, ok := cmd.InOrStdin().(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// printDemoPlan is the demo without a keyboard: what the console would
// show, in plain text, then core's verdict on the exact document.
func printDemoPlan(ctx context.Context, cmd *cobra.Command, bed *testbed.Bed, in planner.Inputs) error {
	runID, err := newRunID()
	if err != nil {
		return exitWith(1, "cannot draw a run id: %v", err)
	}
	p, err := planner.Build(ctx, bed.Deps(), in, runID)
	if err != nil {
		return planError(err)
	}
	files, err := planner.Files(ctx, bed.Runner, p)
	if err != nil {
		return exitWith(1, "reading the changed files: %v", err)
	}
	out := cmd.OutOrStdout()
	writeDemoSummary(out, p, files, bed.Checkout)
	verdict, code := entrypoint.Run(entrypoint.KindInitial, p.Canonical)
	fmt.Fprintln(out, "evaluate --initial on this document:")
	if err := writeJSON(out, verdict); err != nil {
		return exitWith(1, "write: %v", err)
	}
	if code != 0 || verdict.PlanHash != p.PlanHash {
		return exitWith(1, "core does not accept the demo plan (plan hash %s, core says %q)", p.PlanHash, verdict.PlanHash)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "gh-prloop: not a terminal, so nothing was approved; run `gh-prloop demo plan` in a terminal to approve it in the console")
	return nil
}

func writeDemoSummary(w io.Writer, p *planner.Plan, files []approval.File, checkout string) {
	s, m := p.Doc.InitialSnapshot, p.Doc.InitialManifest
	row := func(label, format string, args ...any) {
		fmt.Fprintf(w, "  %-11s%s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(w, "Plan for %s (GitHub simulated; git served at %s)\n", s.Repository, p.Obs.TransportURL)
	row("checkout", "%s", checkout)
	row("base", "%s @ %s", s.BaseBranch, s.BaseSHA)
	row("head", "%s @ %s", s.HeadBranch, s.CurrentHeadSHA)
	row("mode", "%s, run %s", m.Mode, m.RunID)
	row("boundary", "%s", strings.Join(approval.Posture(s.ExecutionBoundary), ", "))
	for _, r := range p.Risk.Lines() {
		row("RISK", "%s", r)
	}
	for i, c := range s.Commands {
		label := ""
		if i == 0 {
			label = "validate"
		}
		row(label, "%s", strings.Join(c.Argv, " "))
	}
	for i, f := range files {
		label := ""
		if i == 0 {
			label = fmt.Sprintf("files (%d)", len(files))
		}
		status := "modified"
		if f.Status != approval.Modified {
			status = string(f.Status)
		}
		row(label, "%-9s %s", status, f.Path)
	}
	for i, op := range m.Operations {
		label := ""
		if i == 0 {
			label = "operations"
		}
		row(label, "%d. %-22s %s", i+1, op, approval.DescribeOperation(op, s))
	}
	row("plan hash", "%s", p.PlanHash)
}
