package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/schedule"
	"github.com/prloop/gh-prloop/simenv"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/execute"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// EnvFault is the hidden crash hook: "before:<op>" or "after:<op>" makes the
// process SIGKILL itself at that point of the operation, so that tests can
// prove a resumed apply reconciles. It is honoured only together with the
// simulator environment (simenv), never against GitHub.
const EnvFault = "PRLOOP_FAULT"

// faultHook returns the Deps.Fault of this process: nil unless both the
// simulator environment and PRLOOP_FAULT are set.
func faultHook(getenv func(string) string) func(string) bool {
	want := getenv(EnvFault)
	if want == "" {
		return nil
	}
	if hook, err := simenv.FromEnv(getenv); err != nil || hook == nil {
		return nil
	}
	return func(point string) bool {
		if point == want {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is delivered; never return
		}
		return false
	}
}

// executeRun runs an approved initial plan, printing its events (one JSON
// object per line with --json), and maps its outcome to an exit status:
// 0 done, 1 drift/halt/error (or another gh-prloop holds the run), 2
// stopped between operations by Ctrl+C.
//
// With note, a finished run says what will wake the loop it started.
func executeRun(cmd *cobra.Command, env planEnv, run *statestore.Run, a statestore.Approval, in planner.Inputs, asJSON, note bool) error {
	c, err := env.client(cmd)
	if err != nil {
		return authError(err)
	}
	git, err := env.git()
	if err != nil {
		return exitWith(1, "%v", err)
	}
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	reg, err := automations.Open(root)
	if err != nil {
		return exitWith(1, "%v", err)
	}
	// Ctrl+C stops between operations, never inside one: the operations'
	// context is not cancelled by the signal, only this flag is set.
	var stop atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			stop.Store(true)
			fmt.Fprintln(cmd.ErrOrStderr(), "gh-prloop: stopping after the current operation…")
		}
	}()
	out := cmd.OutOrStdout()
	print := plainPrinter(out)
	if asJSON {
		print = jsonPrinter(out)
	}
	d := initial.Deps{
		Git: git, GitHub: c, Registry: initial.FromAutomations(reg), Now: env.now,
		Commands: initial.Sandbox{},
		Fault:    faultHook(env.getenv), Stop: stop.Load, Events: print,
	}
	job := initial.Job{Run: run, Approval: a, Inputs: in}
	opCtx := context.WithoutCancel(cmd.Context())
	var res *initial.Result
	if !asJSON && isTerminal(out) && stdinIsTerminal(cmd) {
		// The live list renders the same events; Ctrl+C reaches it as a
		// key and sets the same between-operations stop.
		signal.Stop(sig)
		ops, runID := opsOf(a)
		err = execute.Run(opCtx, execute.Options{Ops: ops, RunID: runID, In: keyboard(cmd), Out: out,
			Execute: func(events func(initial.Event), stopped func() bool) error {
				d.Events, d.Stop = events, func() bool { return stopped() || stop.Load() }
				var err error
				res, err = initial.Execute(opCtx, d, job)
				return err
			}})
	} else {
		res, err = initial.Execute(opCtx, d, job)
	}
	if err == nil && note && res != nil {
		if s := wakerNote(cmd.Context(), env, res.AutomationKey); s != "" {
			fmt.Fprintln(cmd.ErrOrStderr(), s)
		}
	}
	return executeError(err, a)
}

// wakerNote says what will wake a loop just started: the installed
// schedule, or nothing yet — an ACTIVE automation that nothing wakes
// never moves, and start or apply without the watch console would leave
// the user waiting on it.
func wakerNote(ctx context.Context, env planEnv, key string) string {
	watch := "`gh-prloop watch " + sanitize.Text(key) + "`"
	if env.tempState != "" {
		return "" // the demo's state directory goes when the command ends
	}
	status := env.scheduleStatus
	if status == nil {
		status = func(ctx context.Context, root string) (schedule.Status, error) {
			e, err := schedule.System(root, policy.HeartbeatRRule)
			if err != nil {
				return schedule.Status{}, err
			}
			return schedule.GetStatus(ctx, e)
		}
	}
	// A service manager that does not answer must not hold the command.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if root, err := statestore.Root(env.getenv, env.homeDir); err == nil {
		if st, err := status(ctx, root); err == nil && st.Installed {
			return "The schedule wakes it every 2 minutes (`gh-prloop schedule status`); " + watch + " shows it live."
		}
	}
	return "Nothing wakes it yet: `gh-prloop schedule install` runs `gh-prloop wakeup --all` every 2 minutes, or keep " + watch + " open."
}

func executeError(err error, a statestore.Approval) error {
	if err == nil {
		return nil
	}
	runID := runIDOf(a)
	var drift *initial.DriftError
	var h *initial.HaltError
	switch {
	case errors.As(err, &drift):
		var b strings.Builder
		fmt.Fprintf(&b, "drift: the plan rebuilt from fresh observations hashes to %s, not the approved %s; nothing was done.\nChanged since approval:", drift.Rebuilt, drift.Approved)
		for _, ch := range drift.Changes {
			fmt.Fprintf(&b, "\n  %s (%s)", ch.Path, ch.Kind)
		}
		b.WriteString("\nPlan again with `gh-prloop plan` (or `start`) to approve the current state.")
		return exitWith(1, "%s", b.String())
	case errors.As(err, &h):
		return exitWith(1, "%v\nNothing more was done; the journal keeps every receipt. Fix the cause, then `gh-prloop apply %s` reconciles and continues.", err, runID)
	case errors.Is(err, initial.ErrInterrupted):
		return exitWith(2, "stopped between operations; every finished operation is receipted. Resume with `gh-prloop apply %s`.", runID)
	case errors.Is(err, statestore.ErrBusy):
		return exitWith(1, "%v (run %s); nothing was done by this process", err, runID)
	}
	return exitWith(1, "%v\nResume with `gh-prloop apply %s`: it reconciles by observation and never repeats a side effect blindly.", err, runID)
}

func runIDOf(a statestore.Approval) string {
	_, id := opsOf(a)
	return id
}

// opsOf reads the operations and run id of a validated approval's document.
func opsOf(a statestore.Approval) ([]string, string) {
	var doc struct {
		M struct {
			Operations []string `json:"operations"`
			RunID      string   `json:"run_id"`
		} `json:"initial_manifest"`
	}
	_ = json.Unmarshal(a.Document, &doc)
	return doc.M.Operations, doc.M.RunID
}

func jsonPrinter(w io.Writer) func(initial.Event) {
	enc := json.NewEncoder(w)
	return func(e initial.Event) { _ = enc.Encode(e) }
}

// plainPrinter prints one line per event for logs and pipes; remote text
// (an error's quote of GitHub) is sanitized.
func plainPrinter(w io.Writer) func(initial.Event) {
	return func(e initial.Event) {
		var line string
		switch e.Event {
		case initial.EventRevalidated:
			line = "✓ re-validated: " + e.Detail
		case initial.EventStarted:
			line = fmt.Sprintf("[%d/%d] %s …", e.Index+1, e.Of, e.Op)
			if e.Detail != "" {
				line += " (" + e.Detail + ")"
			}
		case initial.EventOutput:
			line = "    | " + e.Detail
		case initial.EventFinished:
			how := "done"
			if e.Reconciled {
				how = "done (found by observation)"
				if e.Detail != "" {
					how = e.Detail
				}
			}
			line = fmt.Sprintf("[%d/%d] %s %s %s", e.Index+1, e.Of, e.Op, how, receiptSummary(e.Receipt))
		case initial.EventFailed:
			line = fmt.Sprintf("[%d/%d] %s FAILED: %s", e.Index+1, e.Of, e.Op, e.Detail)
		case initial.EventResult:
			r := e.Result
			line = fmt.Sprintf("Pull request: %s\nReview requested: comment %s at head %s\nAutomation %s is %s (%s); its first wakeup is due about %s. Inspect it with `gh-prloop automations show %s`.",
				r.PRURL, r.CommentID, r.FinalHeadSHA, r.AutomationKey, r.Status, policy.HeartbeatRRule, r.NextWakeup, r.AutomationKey)
		default:
			return
		}
		fmt.Fprintln(w, sanitize.Text(strings.TrimRight(line, " ")))
	}
}

// receiptSummary shows the receipt fields a human looks for.
func receiptSummary(r map[string]string) string {
	var parts []string
	for _, k := range []string{"commit_sha", "remote_head_sha", "pr_url", "comment_id", "automation_key", "status", "base_sha", "branch"} {
		if v, ok := r[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}
