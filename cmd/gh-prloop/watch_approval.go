package main

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/loop/live"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/watch"
)

// approvalScreen is the typed-hash approval console as a screen of the
// watch console (it draws its own key bar).
type approvalScreen struct{ *approval.Model }

// Update keeps the wrapper: the watch console holds a watch.Screen, and the
// embedded model's Update returns the bare *approval.Model.
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
// + adds a path to a fix round's scope: wakeup.AddPath, then a wakeup of
// this console's source (same lock and code path), and the screen shows
// the rebuilt plan and its new hash.
func (w *watchWiring) approvalFor(cmd *cobra.Command, src *live.Source) func(l status.Loop) (watch.Screen, error) {
	return func(l status.Loop) (watch.Screen, error) {
		ctx := w.ctx
		p, err := wakeup.PendingPlan(ctx, w.deps.Root, l.Key)
		if err != nil {
			return nil, err
		}
		author, login := "", ""
		if name, id, err := w.viewer(cmd); err == nil {
			login = name
			if p.Kind == "remediation" {
				author = loopCommitAuthor(ctx, w.deps, l.Key, login, id)
			}
		}
		// cur is the plan shown; AddPath replaces it before the screen
		// shows the new one, and Recheck and Record run only after that.
		cur := p
		v := pendingView(l.Key, p, src.Observation(), login, author)
		recheck := func(ctx context.Context) (approval.RecheckResult, error) {
			q, err := wakeup.PendingPlan(ctx, w.deps.Root, l.Key)
			if err != nil {
				return approval.RecheckResult{}, err
			}
			return approval.RecheckResult{Document: q.Manifest, PlanHash: q.PlanHash}, nil
		}
		record := func(ctx context.Context) (string, error) {
			_, id, err := w.viewer(cmd)
			if err != nil {
				return "", err
			}
			if _, err := wakeup.Approve(ctx, w.deps, l.Key, cur.PlanHash, id); err != nil {
				return "", err
			}
			return fmt.Sprintf("approved the %s plan %s; the console executes it now", cur.Kind, cur.PlanHash), nil
		}
		var addPath func(ctx context.Context, path string) (approval.View, error)
		if p.Kind == "remediation" {
			addPath = func(ctx context.Context, path string) (approval.View, error) {
				q, err := addPathAndReplan(ctx, w.deps, l.Key, path, func(ctx context.Context) error {
					_, err := src.Wakeup(ctx, nil)
					return err
				})
				if err != nil {
					return approval.View{}, err
				}
				cur = q
				return pendingView(l.Key, q, src.Observation(), login, author), nil
			}
		}
		m := approval.New(approval.Config{View: v, Recheck: recheck, Record: record, AddPath: addPath, Context: ctx}, w.styles)
		return approvalScreen{m}, nil
	}
}

// viewer is the approving account (login, id), read from GitHub once.
func (w *watchWiring) viewer(cmd *cobra.Command) (string, int64, error) {
	w.mu.Lock()
	login, id := w.approverLogin, w.approverID
	w.mu.Unlock()
	if id != 0 {
		return login, id, nil
	}
	login, id, err := viewer(cmd, w.env)
	if err != nil {
		return "", 0, err
	}
	w.mu.Lock()
	w.approverLogin, w.approverID = login, id
	w.mu.Unlock()
	return login, id, nil
}
