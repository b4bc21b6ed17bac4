package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/approval"
)

// pendingView is what the approval console shows of a remediation or
// finalization plan, in `approve` and in the watch console alike
// (tui/approval's loop-plan views: threads by path:line, priority and
// title from the last observation, paths, commands, operations, hash),
// with how to add a path to a remediation scope, the approver and — where
// the plan makes a commit (a fix round) — the commit's author.
func pendingView(key string, p *wakeup.Pending, obs *observe.PR, login, author string) approval.View {
	c := p.Checkpoint
	var v approval.View
	switch m := c.RemediationManifest; {
	case m != nil && p.Kind == "remediation":
		// No file content is shown: the round's edit has not happened yet
		// (its diff is shown before the commit). Files without the plan's
		// blobs would make the plan unapprovable (the console binds every
		// file it shows).
		v = approval.FromRemediation(*m, p.PlanHash, p.Manifest, c.Mode, int(c.FixRounds)+1, obs, nil)
		v.Body += fmt.Sprintf("\nPaths the fix may change: %s\nPress + to add one (the plan and its hash are rebuilt), or run: gh-prloop approve %s --add-path PATH\n",
			strings.Join(m.Paths, ", "), key)
		v.Author = author
	case c.FinalizationManifest != nil:
		v = approval.FromFinalization(*c.FinalizationManifest, p.PlanHash, p.Manifest, c.Mode, obs)
	default:
		v = approval.View{Repository: c.Repository, PlanHash: p.PlanHash, Document: p.Manifest}
	}
	v.Approver = login
	return v
}

// loopPlanView is what `approve` shows of a loop's pending plan: the
// watch console's view (pendingView), with the commit's author by the
// executors' own rule where the plan makes a commit.
func loopPlanView(ctx context.Context, d wakeup.Deps, key string, p *wakeup.Pending, obs *observe.PR, login string, viewerID int64) approval.View {
	author := ""
	if p.Kind == "remediation" {
		author = loopCommitAuthor(ctx, d, key, login, viewerID)
	}
	return pendingView(key, p, obs, login, author)
}

// loopCommitAuthor is the author of a fix round's commit, "" when the
// checkout cannot be found (the plan's re-check then fails anyway).
func loopCommitAuthor(ctx context.Context, d wakeup.Deps, key, login string, viewerID int64) string {
	run, err := wakeup.OpenRun(d.Root, key)
	if err != nil || d.Git == nil {
		return ""
	}
	root, _, err := wakeup.LocalCheckout{Git: d.Git}.CheckoutPush(ctx, run)
	if err != nil {
		return ""
	}
	return commitAuthor(ctx, d.Git, root, login, viewerID)
}
