package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/loop/live"
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

// Update returns the screen itself, not the embedded *approval.Model that
// the promoted method would: the watch console keeps its child as a
// watch.Screen, and the bare model is not one (the first key typed into
// the hash input panicked the console on a real terminal).
func (s approvalScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := s.Model.Update(msg)
	return s, cmd
}

// approvalFor opens the approval console of the loop's pending plan in the
// watch console. The hash is checked against the plan as stored now (a
// concurrent `approve --add-path` rebuilds it, and the console then shows
// the drift and records nothing); the approval is recorded exactly as
// `gh-prloop approve --hash` records it, and the wakeup that follows
// re-validates the plan against fresh observations before any side effect.
func (w *watchWiring) approvalFor(cmd *cobra.Command, src *live.Source) func(l status.Loop) (watch.Screen, error) {
	return func(l status.Loop) (watch.Screen, error) {
		ctx := w.ctx
		p, err := wakeup.PendingPlan(ctx, w.deps.Root, l.Key)
		if err != nil {
			return nil, err
		}
		v := pendingView(l, p, src.Observation())
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
// finalization plan (tui/approval's loop-plan views: threads by path:line,
// priority and title from the last observation, paths, commands,
// operations, hash), with how to add a path to a remediation scope.
func pendingView(l status.Loop, p *wakeup.Pending, obs *observe.PR) approval.View {
	c := p.Checkpoint
	if m := c.RemediationManifest; m != nil && p.Kind == "remediation" {
		v := approval.FromRemediation(*m, p.PlanHash, p.Manifest, c.Mode, int(c.FixRounds)+1, obs, nil)
		v.Body += fmt.Sprintf("\nPaths the fix may change: %s\nAdd one with: gh-prloop approve %s --add-path PATH (the plan and its hash are rebuilt)\n",
			strings.Join(m.Paths, ", "), l.Key)
		return v
	}
	if m := c.FinalizationManifest; m != nil {
		return approval.FromFinalization(*m, p.PlanHash, p.Manifest, c.Mode, obs)
	}
	return approval.View{Repository: c.Repository, PlanHash: p.PlanHash, Document: p.Manifest}
}
