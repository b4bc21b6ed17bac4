package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/automations/manage"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// wakeupDeps wires a wakeup to this process: the state root, the GitHub
// client, the git runner and the registry. Executors of this build are
// added here as they land (loop/remediate, loop/finalize).
func wakeupDeps(cmd *cobra.Command, env planEnv) (wakeup.Deps, error) {
	return wakeupDepsWithEvents(cmd, env, nil)
}

// wakeupDepsWithEvents is wakeupDeps whose executors report each operation
// to events (the watch console's live operation list); nil reports nothing.
func wakeupDepsWithEvents(cmd *cobra.Command, env planEnv, events func(initial.Event)) (wakeup.Deps, error) {
	return wakeupDepsWith(cmd, env, wakeup.RemediationOptions{Events: events})
}

// wakeupDepsWith is wakeupDeps whose executors report to opts.Events and
// whose remediation asks a console through opts' hooks (the watch console).
func wakeupDepsWith(cmd *cobra.Command, env planEnv, opts wakeup.RemediationOptions) (wakeup.Deps, error) {
	events := opts.Events
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return wakeup.Deps{}, exitWith(1, "%v", err)
	}
	reg, err := automations.Open(root)
	if err != nil {
		return wakeup.Deps{}, exitWith(1, "%v", err)
	}
	client, err := env.client(cmd)
	if err != nil {
		return wakeup.Deps{}, err
	}
	git, err := env.git()
	if err != nil {
		return wakeup.Deps{}, exitWith(1, "%v", err)
	}
	// The crash hook reaches the loop's executors exactly as it reaches
	// apply's: only with the complete simulator environment.
	fault := faultHook(env.getenv)
	rd := remediate.Deps{Git: git, GitHub: client, Commands: initial.Sandbox{}, Fixer: remediate.FixerSandbox{}, Now: env.now, Fault: fault}
	fd := finalize.Deps{GitHub: client, Registry: reg, Now: env.now, Fault: fault}
	return wakeup.Deps{Root: root, GitHub: client, Registry: reg, Git: git, Now: env.now,
		Executors: map[string]wakeup.Executor{
			evaluate.ActionExecuteRemediation:  wakeup.RemediationExecutor(rd, wakeup.LocalCheckout{Git: git}.CheckoutPush, opts),
			evaluate.ActionExecuteFinalization: wakeup.FinalizationExecutor(fd, events),
			evaluate.ActionFinishFinalization:  wakeup.FinishExecutor(fd, events),
		}}, nil
}

// loopKey resolves KEY (a loop key or an automation id) in the registry.
func loopKey(cmd *cobra.Command, reg *automations.Registry, arg string) (string, error) {
	recs, err := reg.List(cmd.Context())
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	rec, err := manage.Resolve(recs, arg)
	if err != nil {
		if _, kerr := wakeup.RunIDOfKey(arg); kerr == nil {
			return arg, nil // a finalized loop: its automation is gone, its run is not
		}
		return "", exitWith(1, "%s: %v", sanitize.Text(arg), err)
	}
	return rec.Key, nil
}

func newWakeupCmd(env planEnv) *cobra.Command {
	var all, asJSON bool
	cmd := &cobra.Command{
		Use:   "wakeup [KEY | --all] [--json]",
		Short: "Wake a loop once: observe, evaluate, do exactly the action core emits",
		Long: `Wake the loop KEY (an automation key or id, or OWNER/REPO#NUMBER), or every ACTIVE automation with
--all, once (--all also finishes a loop whose finalization deleted its
automation but was interrupted before recording its end). Under the run's
lock each wakeup re-fetches the pull request in
one GraphQL query, assembles the complete recurring state from it, the
automation registry and the run's checkpoint, runs core's evaluator and does
exactly the action it emits:

  wait, report          nothing
  plan-remediation      build the fix round's plan with core, validate, store it
  plan-finalization     build the finalization plan with core, validate, store it
  await-approval        print the plan hash and how to approve (exit 8)
  execute-*             take the claim and run the plan's executor
  halt                  pause the automation with the reason (exit 1)
  done                  nothing: the loop is finalized

Each wakeup is appended to the run's history.jsonl. A loop another gh-prloop
is acting on is reported busy and left to it. Safe to run from a timer.

--json prints one JSON object per loop and line: key, action, reason,
message, done, plan_hash, requests, graphql_points, rest_charged, exit, and
actions — every action the wakeup did, in order, action being the last (a
stored plan shows as [plan-remediation, await-approval] or, autonomous,
[plan-remediation, execute-remediation]).

Exit status: 0 nothing pending, 1 a halt or an error, 8 a plan awaits
approval, 2 usage error.`,
		Example: "  gh-prloop wakeup --all\n  gh-prloop wakeup github-codex-pr-loop/octo/widgets/pull/7/run/0123456789abcdef0123456789abcdef --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if all == (len(args) == 1) {
				return exitWith(2, "name one loop KEY or pass --all")
			}
			d, err := wakeupDeps(cmd, env)
			if err != nil {
				return err
			}
			var outs []wakeup.Outcome
			if all {
				if outs, err = wakeup.All(cmd.Context(), d); err != nil {
					return exitWith(1, "%v", err)
				}
			} else {
				key, err := loopKey(cmd, d.Registry, args[0])
				if err != nil {
					return err
				}
				outs = []wakeup.Outcome{wakeup.One(cmd.Context(), d, key)}
			}
			if len(outs) == 0 && !asJSON && isTerminal(cmd.ErrOrStderr()) {
				// Said to a person only: the schedule's log stays quiet.
				fmt.Fprintln(cmd.ErrOrStderr(), "no ACTIVE loop to wake; `gh-prloop automations list` shows every loop")
			}
			code := 0
			for _, o := range outs {
				if err := printOutcome(cmd.OutOrStdout(), o, asJSON); err != nil {
					return err
				}
				switch {
				case o.Exit == wakeup.ExitHalt:
					code = 1
				case o.Exit == wakeup.ExitPending && code == 0:
					code = wakeup.ExitPending
				}
			}
			if code != 0 {
				return silentExit(code)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "wake every ACTIVE automation of the registry")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per loop and line")
	return cmd
}

// printOutcome prints one loop's wakeup; everything that may carry text
// from GitHub goes through the sanitizer.
func printOutcome(w io.Writer, o wakeup.Outcome, asJSON bool) error {
	if asJSON {
		o.Message, o.Done, o.Error = sanitize.Text(o.Message), sanitize.Text(o.Done), sanitize.Text(o.Error)
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	line := fmt.Sprintf("%s: %s (%s)", o.Key, o.Action, o.Reason)
	if o.Message != "" {
		line += " — " + o.Message
	}
	if o.Done != "" {
		line += "\n  done: " + o.Done
	}
	if o.Error != "" {
		line += "\n  error: " + o.Error
	}
	line += fmt.Sprintf("\n  cost: %d requests, %d GraphQL points, %d charged REST", o.Requests, o.Points, o.REST)
	_, err := fmt.Fprintln(w, sanitize.Text(line))
	return err
}

func newApproveCmd(env planEnv) *cobra.Command {
	var (
		hash     string
		addPaths []string
	)
	cmd := &cobra.Command{
		Use:   "approve [KEY] [--hash HASH] [--add-path PATH]...",
		Short: "Approve a loop's pending remediation or finalization plan by its hash",
		Long: `Approve the plan a wakeup stored for the loop KEY (or the only loop with a
plan waiting): the plan is printed — kind, threads, paths, commands,
operations — and --hash must name its exact plan hash. The next wakeup
re-validates it against fresh observations and executes it.

--add-path PATH adds a file to the remediation scope instead: the stored plan
and any approval of it are dropped, a wakeup rebuilds the plan, and its new
hash is printed for approval.
On a terminal the console shows the plan (and the fix round's commit
author); + adds a path there the same way.

Exit status: 0 approved (or rebuilt), 1 wrong hash, no plan or error, 2 usage.`,
		Example: "  gh-prloop approve --hash 3f1c…\n  gh-prloop approve KEY --add-path internal/retry/budget.go",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := wakeupDeps(cmd, env)
			if err != nil {
				return err
			}
			var key string
			if len(args) == 1 {
				if key, err = loopKey(cmd, d.Registry, args[0]); err != nil {
					return err
				}
			} else if key, err = onlyAwaiting(cmd, d); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(addPaths) > 0 {
				if hash != "" {
					return exitWith(2, "--add-path rebuilds the plan: approve its new hash afterwards")
				}
				for _, p := range addPaths {
					if err := wakeup.AddPath(cmd.Context(), d, key, p); err != nil {
						return exitWith(1, "%s", sanitize.Text(err.Error()))
					}
				}
				o := wakeup.One(cmd.Context(), d, key)
				if err := printOutcome(out, o, false); err != nil {
					return err
				}
				if o.Exit == wakeup.ExitHalt {
					return silentExit(1)
				}
			}
			p, err := wakeup.PendingPlan(cmd.Context(), d.Root, key)
			if err != nil {
				return exitWith(1, "%s: %v", key, err)
			}
			if hash == "" && len(addPaths) == 0 && stdinIsTerminal(cmd) && isTerminal(out) {
				return approveConsole(cmd, env, d, key, p)
			}
			var obs *observe.PR
			if hash == "" {
				// Shown to be read: the threads by path, priority and title
				// (their ids alone when GitHub cannot be read).
				obs, _ = loopPR(cmd, env, p)
			}
			printPending(out, key, p, obs)
			if hash == "" {
				fmt.Fprintf(out, "\nto approve: gh-prloop approve %s --hash %s\n", key, p.PlanHash)
				if len(addPaths) > 0 {
					return nil
				}
				return exitWith(2, "pass --hash with the plan hash shown above to approve it")
			}
			_, viewerID, err := viewer(cmd, env)
			if err != nil {
				return err
			}
			if _, err := wakeup.Approve(cmd.Context(), d, key, hash, viewerID); err != nil {
				if errors.Is(err, wakeup.ErrHashMismatch) {
					return exitWith(1, "%s", sanitize.Text(err.Error()))
				}
				return exitWith(1, "%v", err)
			}
			fmt.Fprintln(out, approvedWords(key, p))
			return nil
		},
	}
	cmd.Flags().StringVar(&hash, "hash", "", "the exact plan hash to approve")
	cmd.Flags().StringArrayVar(&addPaths, "add-path", nil, "add a path to the remediation scope and rebuild the plan")
	return cmd
}

func viewer(cmd *cobra.Command, env planEnv) (string, int64, error) {
	client, err := env.client(cmd)
	if err != nil {
		return "", 0, err
	}
	login, id, err := client.Viewer(cmd.Context())
	if err != nil {
		return "", 0, exitWith(1, "reading the approver's account: %v", err)
	}
	return login, id, nil
}

// onlyAwaiting is the one ACTIVE loop with a stored plan.
func onlyAwaiting(cmd *cobra.Command, d wakeup.Deps) (string, error) {
	recs, err := d.Registry.List(cmd.Context())
	if err != nil {
		return "", exitWith(1, "%v", err)
	}
	var keys []string
	for _, r := range recs {
		if r.Status != automations.StatusActive {
			continue
		}
		if _, err := wakeup.PendingPlan(cmd.Context(), d.Root, r.Key); err == nil {
			keys = append(keys, r.Key)
		}
	}
	switch len(keys) {
	case 0:
		return "", exitWith(1, "no loop has a plan waiting for approval")
	case 1:
		return keys[0], nil
	}
	return "", exitWith(2, "%d loops have plans waiting; name one: %s", len(keys), strings.Join(keys, ", "))
}

// printPending prints the plan an approval binds: what it fixes or
// finishes, where, with which commands and operations, and its hash.
func printPending(w io.Writer, key string, p *wakeup.Pending, obs *observe.PR) {
	c := p.Checkpoint
	var b strings.Builder
	fmt.Fprintf(&b, "%s plan of %s\n", p.Kind, key)
	fmt.Fprintf(&b, "  %s #%d, head %s, round %d of at most %d\n", c.Repository, c.PRNumber, short(c.RequestHeadSHA), c.FixRounds+1, policy.MaxFixRounds)
	if m := c.RemediationManifest; m != nil {
		fmt.Fprintf(&b, "  threads to fix: %d\n", len(m.ActionableThreads))
		indentLines(&b, approval.ThreadLines(m.ActionableThreads, obs))
		fmt.Fprintf(&b, "  paths:\n")
		for _, path := range m.Paths {
			fmt.Fprintf(&b, "    %s\n", path)
		}
		fmt.Fprintf(&b, "  commands:\n")
		for _, cm := range m.Commands {
			fmt.Fprintf(&b, "    %s\n", strings.Join(cm.Argv, " "))
		}
		fmt.Fprintf(&b, "  operations: %s\n", strings.Join(m.Operations, ", "))
	}
	if m := c.FinalizationManifest; m != nil {
		fmt.Fprintf(&b, "  threads to resolve: %d\n", len(m.EligibleThreads))
		indentLines(&b, approval.ThreadLines(m.EligibleThreads, obs))
		fmt.Fprintf(&b, "  gates: approvals %s, branch protection %s, checks %s, mergeability %s\n",
			m.Gates.Approvals, m.Gates.BranchProtection, m.Gates.Checks, m.Gates.Mergeability)
		fmt.Fprintf(&b, "  operations: %s\n", strings.Join(m.Operations, ", "))
	}
	if p.Approved {
		fmt.Fprintf(&b, "  already approved\n")
	}
	fmt.Fprintf(&b, "  plan hash: %s\n", p.PlanHash)
	fmt.Fprint(w, sanitize.Text(b.String()))
}

func indentLines(b *strings.Builder, s string) {
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}

// loopPR is the loop's pull request as GitHub shows it now (one GraphQL
// query): the threads a plan names are shown from it.
func loopPR(cmd *cobra.Command, env planEnv, p *wakeup.Pending) (*observe.PR, error) {
	c := p.Checkpoint
	client, err := env.client(cmd)
	if err != nil {
		return nil, err
	}
	repo, err := ghclient.ParseRepo(c.Repository)
	if err != nil {
		return nil, exitWith(1, "%v", err)
	}
	obs, _, err := client.ObservePR(cmd.Context(), repo, c.PRNumber)
	if err != nil {
		return nil, exitWith(1, "observing %s#%d: %v", c.Repository, c.PRNumber, err)
	}
	return obs, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// approveConsole is the typed-hash approval console on the loop's pending
// plan: the hash is re-checked against fresh observations before the
// approval is recorded. + adds a path to a fix round's scope: the plan is
// rebuilt (wakeup.AddPath, then a wakeup, as `approve --add-path`) and the
// console shows the new plan and hash.
func approveConsole(cmd *cobra.Command, env planEnv, d wakeup.Deps, key string, p *wakeup.Pending) error {
	o, err := approveOptions(cmd, env, d, key, p)
	if err != nil {
		return err
	}
	o.In, o.Out, o.Err = keyboard(cmd), cmd.OutOrStdout(), cmd.ErrOrStderr()
	outcome, err := approval.Run(cmd.Context(), o)
	if err != nil && outcome == approval.Failed {
		return exitWith(1, "%v", err)
	}
	if code := outcome.ExitCode(); code != 0 {
		return silentExit(code)
	}
	return nil
}

// approveOptions are the console's view and callbacks for the loop's
// pending plan p.
func approveOptions(cmd *cobra.Command, env planEnv, d wakeup.Deps, key string, p *wakeup.Pending) (approval.Options, error) {
	ctx := cmd.Context()
	login, viewerID, err := viewer(cmd, env)
	if err != nil {
		return approval.Options{}, err
	}
	obs, err := loopPR(cmd, env, p)
	if err != nil {
		return approval.Options{}, err
	}
	// cur is the plan shown: AddPath replaces it (off the UI goroutine,
	// before the console shows the new one; Recheck and Record run only
	// after that).
	cur := p
	view := loopPlanView(ctx, d, key, cur, obs, login, viewerID)
	recheck := func(ctx context.Context) (approval.RecheckResult, error) {
		h, err := wakeup.Recheck(ctx, d, key)
		if err != nil {
			return approval.RecheckResult{}, err
		}
		return approval.RecheckResult{Document: cur.Manifest, PlanHash: h}, nil
	}
	record := func(ctx context.Context) (string, error) {
		if _, err := wakeup.Approve(ctx, d, key, cur.PlanHash, viewerID); err != nil {
			return "", err
		}
		return approvedWords(key, cur), nil
	}
	var addPath func(ctx context.Context, path string) (approval.View, error)
	if cur.Kind == "remediation" {
		addPath = func(ctx context.Context, path string) (approval.View, error) {
			q, err := addPathAndReplan(ctx, d, key, path, func(ctx context.Context) error {
				if o := wakeup.One(ctx, d, key); o.Error != "" || o.Exit == wakeup.ExitHalt {
					return fmt.Errorf("rebuilding the plan: %s", orText(o.Error, o.Message))
				}
				return nil
			})
			if err != nil {
				return approval.View{}, err
			}
			cur = q
			return loopPlanView(ctx, d, key, q, obs, login, viewerID), nil
		}
	}
	return approval.Options{View: view, Recheck: recheck, Record: record, AddPath: addPath}, nil
}

// addPathAndReplan is the console's "add a path": the library function
// `approve --add-path` uses, then a wakeup (replan) that rebuilds the
// plan; it returns the new pending plan.
func addPathAndReplan(ctx context.Context, d wakeup.Deps, key, path string, replan func(context.Context) error) (*wakeup.Pending, error) {
	if err := wakeup.AddPath(ctx, d, key, path); err != nil {
		return nil, err
	}
	if err := replan(ctx); err != nil {
		return nil, err
	}
	q, err := wakeup.PendingPlan(ctx, d.Root, key)
	if err != nil {
		return nil, err
	}
	if q.Kind != "remediation" {
		return nil, fmt.Errorf("the rebuilt plan is a %s plan", q.Kind)
	}
	return q, nil
}

func orText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// approvedWords says what an approval leads to. An approval-gated fix round
// is shown its diff before the commit only in the watch console: a
// headless wakeup commits the fixer's change unseen, and cannot edit by
// hand at all, so the approver is told where to go.
func approvedWords(key string, p *wakeup.Pending) string {
	s := fmt.Sprintf("approved the %s plan %s; ", p.Kind, p.PlanHash)
	c := p.Checkpoint
	if p.Kind != "remediation" || c == nil || c.Mode != policy.ModeApprovalGated {
		return s + "the next wakeup executes it"
	}
	if len(c.Fixer) == 0 {
		return s + "edit the files by hand in `gh-prloop watch " + key + "` (a headless wakeup cannot)"
	}
	return s + "the next wakeup runs the fixer; `gh-prloop watch " + key + "` shows its diff before the commit (a headless wakeup commits it unseen)"
}
