package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/watch"
)

// approvalScreen is the typed-hash approval console as a screen of the
// watch console (it draws its own key bar).
type approvalScreen struct{ *approval.Model }

func (approvalScreen) ShortHelp() []key.Binding  { return approval.NewKeyMap().ShortHelp() }
func (approvalScreen) FullHelp() [][]key.Binding { return approval.NewKeyMap().FullHelp() }

// approvalFor opens the approval console of the loop's pending plan in the
// watch console. The hash is checked against the plan as stored now (a
// concurrent `approve --add-path` rebuilds it, and the console then shows
// the drift and records nothing); the approval is recorded exactly as
// `gh-prloop approve --hash` records it, and the wakeup that follows
// re-validates the plan against fresh observations before any side effect.
func (w *watchWiring) approvalFor(cmd *cobra.Command) func(l status.Loop) (watch.Screen, error) {
	return func(l status.Loop) (watch.Screen, error) {
		ctx := w.ctx
		p, err := wakeup.PendingPlan(ctx, w.deps.Root, l.Key)
		if err != nil {
			return nil, err
		}
		v := pendingView(l, p)
		if v.Host = w.env.host; v.Host == "" {
			v.Host = "github.com"
		}
		recheck := func(ctx context.Context) (approval.RecheckResult, error) {
			q, err := wakeup.PendingPlan(ctx, w.deps.Root, l.Key)
			if err != nil {
				return approval.RecheckResult{}, err
			}
			return approval.RecheckResult{Document: q.Manifest, PlanHash: q.PlanHash}, nil
		}
		record := func(ctx context.Context) (string, error) {
			id := w.approverID
			if id == 0 {
				_, vid, err := viewer(cmd, w.env)
				if err != nil {
					return "", err
				}
				id = vid
			}
			if _, err := wakeup.Approve(ctx, w.deps, l.Key, v.PlanHash, id); err != nil {
				return "", err
			}
			return fmt.Sprintf("approved the %s plan %s; the console executes it now", p.Kind, p.PlanHash), nil
		}
		m := approval.New(approval.Config{View: v, Recheck: recheck, Record: record, Context: ctx}, w.styles)
		return approvalScreen{m}, nil
	}
}

// pendingView is what the approval console shows of a remediation or
// finalization plan: the threads (path:line, priority, title), the paths,
// the commands, the operations and the hash.
func pendingView(l status.Loop, p *wakeup.Pending) approval.View {
	c := p.Checkpoint
	v := approval.View{
		Repository: c.Repository, BaseBranch: c.BaseBranch, HeadBranch: c.HeadBranch, HeadSHA: c.RequestHeadSHA,
		Mode: c.Mode, RunID: c.RunID, RemoteName: c.RemoteName, ExistingPR: c.PRNumber,
		PlanHash: p.PlanHash, Document: p.Manifest,
		Title: fmt.Sprintf("%s plan, round %d of at most %d", p.Kind, c.FixRounds+1, l.MaxRounds),
	}
	byID := map[string]status.Thread{}
	for _, t := range l.Threads {
		byID[t.ID] = t
	}
	var b strings.Builder
	thread := func(id string) {
		t, ok := byID[id]
		if !ok {
			fmt.Fprintf(&b, "- %s\n", id)
			return
		}
		loc := t.Path
		if t.Line > 0 {
			loc = fmt.Sprintf("%s:%d", t.Path, t.Line)
		}
		fmt.Fprintf(&b, "- %s %s %s\n", loc, t.Priority, t.Title)
	}
	var ops []string
	if m := c.RemediationManifest; m != nil && p.Kind == "remediation" {
		fmt.Fprintf(&b, "Threads to fix (%d):\n", len(m.ActionableThreads))
		for _, t := range m.ActionableThreads {
			thread(t.ID)
		}
		fmt.Fprintf(&b, "\nPaths the fix may change (%d):\n", len(m.Paths))
		for _, path := range m.Paths {
			fmt.Fprintf(&b, "- %s\n", path)
		}
		fmt.Fprintf(&b, "\nAdd a path with: gh-prloop approve %s --add-path PATH (the plan and its hash are rebuilt)\n", l.Key)
		for _, cm := range m.Commands {
			v.Commands = append(v.Commands, cm.Argv)
		}
		ops = m.Operations
	}
	if m := c.FinalizationManifest; m != nil && p.Kind == "finalization" {
		fmt.Fprintf(&b, "Threads to resolve (%d):\n", len(m.EligibleThreads))
		for _, t := range m.EligibleThreads {
			thread(t.ID)
		}
		g := m.Gates
		fmt.Fprintf(&b, "\nGates: approvals %s, branch protection %s, checks %s, mergeability %s\n", g.Approvals, g.BranchProtection, g.Checks, g.Mergeability)
		ops = m.Operations
	}
	v.Body = b.String()
	for _, op := range ops {
		v.Operations = append(v.Operations, approval.Operation{Name: op, Description: opWords[op]})
	}
	return v
}

var opWords = map[string]string{
	"edit-files":              "run the fixer (or wait for your hand edit) on the paths above",
	"run-validation":          "run the validation commands in the sandbox",
	"commit":                  "commit the change with the run's trailers",
	"push":                    "push the head branch",
	"reply-to-codex-threads":  "reply to each fixed Codex thread",
	"request-codex-review":    "ask Codex to review the next round",
	"update-automation":       "record the new round",
	"mark-draft-ready":        "mark the pull request ready for review",
	"resolve-codex-threads":   "resolve the eligible Codex threads",
	"delete-owned-automation": "delete the loop's automation",
}
