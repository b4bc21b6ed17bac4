package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/prloop/gh-prloop/simenv"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/schedule"
	"github.com/prloop/gh-prloop/statestore"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/sanitize"
	"github.com/spf13/cobra"
)

// planEnv is what `plan` needs from the world; the demo and tests supply a
// simulator-backed one, production the real one. Nothing else differs.
type planEnv struct {
	client  func(cmd *cobra.Command) (*ghclient.Client, error)
	git     func() (*gitx.Runner, error)
	host    string // the only host a remote may name ("" = github.com)
	now     func() time.Time
	getenv  func(string) string
	homeDir func() (string, error)
	// tempState is a state directory removed when the command ends (the
	// demo's); an approval recorded there is not pointed at.
	tempState string
	// scheduleStatus is the installed schedule's status (nil: this
	// machine's, read by schedule.GetStatus).
	scheduleStatus func(ctx context.Context, root string) (schedule.Status, error)
}

func defaultPlanEnv() planEnv {
	git, host := defaultGit()
	return planEnv{
		client:  defaultClient,
		git:     git,
		host:    host,
		now:     defaultNow(),
		getenv:  os.Getenv,
		homeDir: os.UserHomeDir,
	}
}

// defaultNow is the wall clock, or under `gh-prloop sim --time-scale N` the
// simulator's clock, so that the times the product records agree with the
// times the simulated GitHub writes. A clock that cannot be read falls back
// to the wall clock: the evaluator then sees the simulator's times in its
// future and halts, which fails closed.
func defaultNow() func() time.Time {
	clock, err := simenv.Clock(os.Getenv)
	if err != nil {
		return time.Now
	}
	return func() time.Time {
		t, err := clock(context.Background())
		if err != nil {
			return time.Now()
		}
		return t
	}
}

func newPlanCmd(env planEnv) *cobra.Command {
	var (
		in       planner.Inputs
		bodyFile string
		fixer    string
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "plan [flags]",
		Short: "Build the initial plan from this checkout and approve its exact hash",
		Long: `Observe the checkout and GitHub, build the initial document (snapshot, manifest
and plan hash) and have core validate it. On a terminal the approval console
shows the plan; you approve by typing the full 64-character plan hash. The plan
is then rebuilt from fresh observations and must hash identically, or nothing
is recorded and the fields that drifted are shown.

Nothing is written to git or GitHub. An approval is recorded in the state
directory ($GH_PRLOOP_STATE_DIR, else $XDG_STATE_HOME/gh-prloop), with the
--fixer the loop runs on Codex findings (as start records it; required with
--mode autonomous), so that apply and the wakeups after it use it.

--json prints the canonical document: compact, exactly the bytes that are
hashed, on a terminal too, so that it can be piped to ` + "`gh-prloop evaluate --initial`" + `
and hashed by anyone.

Exit status: 0 approved, printed with --json, or summarized without a terminal
(nothing is approved then), 1 error or drift, 2 cancelled or usage error,
4 not logged in.`,
		Example: "  gh-prloop plan --title 'Fix the parser' --validate 'go test ./...'\n  gh-prloop plan --json --title 'Fix the parser' | gh-prloop evaluate --initial",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if in.Mode != "approval-gated" && in.Mode != "autonomous" {
				return usageExit(cmd, "--mode must be approval-gated or autonomous, got %q", in.Mode)
			}
			argv, err := parseFixer(cmd, in.Mode, fixer)
			if err != nil {
				return err
			}
			if bodyFile != "" {
				b, err := readBodyFile(cmd, bodyFile)
				if err != nil {
					return err
				}
				in.Body = b
			}
			if in.Dir == "" {
				in.Dir = "."
			}
			in.Host = env.host
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return runPlan(ctx, cmd, env, in, argv, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Mode, "mode", "approval-gated", "approval-gated or autonomous")
	f.StringVarP(&in.Title, "title", "t", "", "title of a new pull request (a reused one keeps its own)")
	f.StringVar(&fixer, "fixer", "", "fixer `command` the loop runs on Codex findings (split like a shell line, never run by one); required with --mode autonomous")
	f.StringVarP(&bodyFile, "body-file", "F", "", "read the new pull request's body from `file` (- for stdin)")
	f.StringArrayVar(&in.Validate, "validate", nil, "validation `command`, run before the commit; repeatable, kept in order")
	f.StringVar(&in.Remote, "remote", "", "remote to use (default: the one the current branch tracks)")
	f.StringVarP(&in.Base, "base", "B", "", "base branch (default: the remote's default branch)")
	f.StringVarP(&in.Head, "head", "H", "", "head branch (default: the current branch)")
	f.StringVarP(&in.Dir, "dir", "C", ".", "run as if started in `dir`")
	f.BoolVar(&asJSON, "json", false, "print the validated initial document instead of the console")
	return cmd
}

// planDeps is what plan and start build a plan with: the GitHub client,
// the sanitized git runner and a fresh run id.
func planDeps(cmd *cobra.Command, env planEnv) (*ghclient.Client, *gitx.Runner, planner.Deps, string, error) {
	c, err := env.client(cmd)
	if err != nil {
		return nil, nil, planner.Deps{}, "", authError(err)
	}
	git, err := env.git()
	if err != nil {
		return nil, nil, planner.Deps{}, "", exitWith(1, "%v", err)
	}
	runID, err := newRunID()
	if err != nil {
		return nil, nil, planner.Deps{}, "", exitWith(1, "cannot draw a run id: %v", err)
	}
	return c, git, planner.Deps{Git: git, GitHub: c}, runID, nil
}

func runPlan(ctx context.Context, cmd *cobra.Command, env planEnv, in planner.Inputs, fixer []string, asJSON bool) error {
	c, git, deps, runID, err := planDeps(cmd, env)
	if err != nil {
		return err
	}
	progress := func(msg string) {
		if !asJSON && isTerminal(cmd.ErrOrStderr()) {
			fmt.Fprintln(cmd.ErrOrStderr(), msg)
		}
	}
	progress("Observing the checkout and GitHub…")
	p, err := planner.Build(ctx, deps, in, runID)
	if err != nil {
		return planError(err)
	}
	if asJSON {
		out := append(append([]byte{}, p.Canonical...), '\n')
		_, err := cmd.OutOrStdout().Write(out)
		return err
	}
	login, viewerID, err := c.Viewer(ctx)
	if err != nil {
		return observeError(err)
	}
	view, err := initialView(ctx, git, p, login, viewerID)
	if err != nil {
		return err
	}
	if !isTerminal(cmd.OutOrStdout()) {
		// No human at a terminal: nothing can be approved. Say what would be.
		s := p.Doc.InitialSnapshot
		fmt.Fprintln(cmd.OutOrStdout(), sanitize.Text(fmt.Sprintf("plan %s\nrepository %s  %s <- %s  mode %s\noperations %v",
			p.PlanHash, s.Repository, s.BaseBranch, s.HeadBranch, p.Doc.InitialManifest.Mode, p.Doc.InitialManifest.Operations)))
		fmt.Fprintln(cmd.ErrOrStderr(), "gh-prloop: not a terminal; nothing was approved (use --json to print the document)")
		return nil
	}
	record := func(ctx context.Context) (string, error) {
		return recordPlanApproval(ctx, env, p, in, runID, viewerID, login, fixer)
	}
	outcome, err := approval.Run(ctx, approval.Options{View: view, Recheck: initialRecheck(deps, in, runID), Record: record, In: keyboard(cmd), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()})
	if err != nil && outcome == approval.Failed {
		return exitWith(1, "%v", err)
	}
	if code := outcome.ExitCode(); code != 0 {
		return silentExit(code)
	}
	return nil
}

// initialView is what the approval console shows of an initial plan, for
// `plan` and `start` alike: the document, and every approved byte it only
// hashes — the PR title and body, the accepted risks, each changed file —
// with the approver and the commit's author. (start's console once lacked
// the body and the risk record.)
func initialView(ctx context.Context, git *gitx.Runner, p *planner.Plan, login string, viewerID int64) (approval.View, error) {
	view := approval.FromDocument(p.Doc, p.Canonical)
	view.Title, view.Body, view.Approver = p.Title, p.Body, login
	view.Author = commitAuthor(ctx, git, p.Obs.Root, login, viewerID)
	view.Risks = p.Risk.Lines()
	var err error
	if view.Files, err = planner.Files(ctx, git, p); err != nil {
		return approval.View{}, exitWith(1, "reading the changed files: %v", err)
	}
	return view, nil
}

// initialRecheck rebuilds the initial plan from fresh observations for the
// console's check after the hash is typed, with the blob ids that name the
// files whose content drifted.
func initialRecheck(deps planner.Deps, in planner.Inputs, runID string) func(context.Context) (approval.RecheckResult, error) {
	return func(ctx context.Context) (approval.RecheckResult, error) {
		q, err := planner.Build(ctx, deps, in, runID)
		if err != nil {
			return approval.RecheckResult{}, err
		}
		return approval.RecheckResult{Document: q.Canonical, PlanHash: q.PlanHash, Blobs: planner.Blobs(q)}, nil
	}
}

// recordApproval writes the approval atomically under the run's lock and
// states in one line what was approved.
func recordApproval(ctx context.Context, env planEnv, p *planner.Plan, in planner.Inputs, runID string, viewerID int64, login string) (string, error) {
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return "", err
	}
	a := statestore.Approval{Document: p.Canonical, PlanHash: p.PlanHash, ApprovedAt: schema.FormatTime(env.now()), ApproverID: viewerID, ApproverLogin: login}
	// The inputs are recorded with the approval: apply rebuilds the plan
	// from exactly them before the first side effect.
	in.Mode, in.Dir = p.Doc.InitialManifest.Mode, p.Obs.Root
	dir, err := initial.RecordApproval(ctx, root, runID, a, in)
	if err != nil {
		return "", err
	}
	s := p.Doc.InitialSnapshot
	where := "recorded in " + dir + "; run `gh-prloop apply " + runID + "` to execute it"
	if env.tempState != "" && (dir == env.tempState || strings.HasPrefix(dir, env.tempState+string(filepath.Separator))) {
		where = "recorded in the demo's temporary state directory, removed on exit (set " + statestore.EnvStateDir + " to keep it)"
	}
	return fmt.Sprintf("Approved plan %s for %s (%s <- %s, %d operations) as %s; %s",
		p.PlanHash, s.Repository, s.BaseBranch, s.HeadBranch, len(p.Doc.InitialManifest.Operations), login, where), nil
}

// recordPlanApproval is what `plan` records when the hash is typed: the
// approval, then the run's fixer exactly as `start --fixer` stores it, so
// that `apply` and the loop's wakeups use it.
func recordPlanApproval(ctx context.Context, env planEnv, p *planner.Plan, in planner.Inputs, runID string, viewerID int64, login string, fixer []string) (string, error) {
	statement, err := recordApproval(ctx, env, p, in, runID, viewerID, login)
	if err != nil || fixer == nil {
		return statement, err
	}
	root, err := statestore.Root(env.getenv, env.homeDir)
	if err != nil {
		return "", err
	}
	run, err := statestore.OpenPlan(root, runID)
	if err != nil {
		return "", err
	}
	if err := storeFixer(ctx, run, fixer); err != nil {
		return "", fmt.Errorf("recording the fixer: %w", err)
	}
	return statement, nil
}

func newRunID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

func readBodyFile(cmd *cobra.Command, name string) (string, error) {
	b, err := readInput(cmd, []string{name})
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// planError: a refusal by local observation or core is the user's to fix
// (exit 1 with the reason); a missing token is exit 4.
func planError(err error) error {
	var ref *local.Refusal
	var rej *planner.RejectedError
	switch {
	case errors.Is(err, ghclient.ErrNoToken):
		return exitWith(4, "%v", err)
	case errors.As(err, &ref):
		return exitWith(1, "%v", err)
	case errors.As(err, &rej):
		return exitWith(1, "%v", err)
	}
	return exitWith(1, "%s", plainError(err))
}
