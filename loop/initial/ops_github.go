package initial

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/loop/step"
)

// ownPR finds the open pull request this run would have created: from the
// head branch of the same repository, opened by the authenticated user.
func (x *exec) ownPR(ctx context.Context) (*ghclient.PRInfo, error) {
	_, viewerID, err := x.viewer(ctx)
	if err != nil {
		return nil, err
	}
	open, _, err := x.d.GitHub.OpenPRsForHead(ctx, x.repo, x.repo.Owner, x.snap.HeadBranch)
	if err != nil {
		return nil, err
	}
	var mine []ghclient.PRInfo
	for _, p := range open {
		if !p.IsCrossRepository && strings.EqualFold(p.HeadRepo, x.snap.Repository) {
			if p.AuthorID != viewerID {
				return nil, halt(policy.OpCreatePR, "pull request #%d from %s was opened by another account (%d)", p.Number, x.snap.HeadBranch, p.AuthorID)
			}
			mine = append(mine, p)
		}
	}
	switch len(mine) {
	case 0:
		return nil, nil
	case 1:
		return &mine[0], nil
	}
	return nil, halt(policy.OpCreatePR, "%d open pull requests use head branch %s", len(mine), x.snap.HeadBranch)
}

// createPR opens the pull request, ready for review (PROTOCOL §8), after
// re-hashing its title and body against the manifest. A pull request this
// run already opened is found and receipted instead.
func (x *exec) createPR(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpCreatePR
	body := x.job.Inputs.Body
	if sha256Hex(x.title) != x.man.PRTitleSHA256 || sha256Hex(body) != x.man.PRBodySHA256 {
		return nil, false, halt(op, "the title or body does not hash to the approved pr_title_sha256/pr_body_sha256")
	}
	receipt := func(p *ghclient.PRInfo) (map[string]string, error) {
		if p.HeadSHA != x.finalHead {
			return nil, halt(op, "pull request #%d is at %s, not the final head %s", p.Number, p.HeadSHA, x.finalHead)
		}
		if p.BaseRefName != x.snap.BaseBranch {
			return nil, halt(op, "pull request #%d targets %s, not %s", p.Number, p.BaseRefName, x.snap.BaseBranch)
		}
		return map[string]string{"pr_number": strconv.FormatInt(p.Number, 10), "pr_url": p.URL, "pr_head_sha": p.HeadSHA}, nil
	}
	p, found, err := step.Once[ghclient.PRInfo]{
		Op: op, Find: x.ownPR, Fault: x.fault,
		Write: func(ctx context.Context) (*ghclient.PRInfo, error) {
			return x.d.GitHub.CreatePR(ctx, x.repo, ghclient.NewPR{Title: x.title, Body: body, Head: x.snap.HeadBranch, Base: x.snap.BaseBranch, Draft: false})
		},
		Unseen: func(err error) error {
			return fmt.Errorf("%w; no pull request is visible yet, so nothing was sent again: run apply again to reconcile", err)
		},
	}.Do(ctx)
	if err != nil {
		return nil, false, err
	}
	r, err := receipt(p)
	return r, found, err
}

// reusePR checks the reused pull request: still open, same branches, at the
// final head.
func (x *exec) reusePR(ctx context.Context) (map[string]string, bool, error) {
	n := *x.snap.ExistingPRNumber
	p, _, err := x.d.GitHub.PullRequest(ctx, x.repo, n)
	if err != nil {
		return nil, false, err
	}
	switch {
	case !strings.EqualFold(p.State, "open"):
		return nil, false, halt(policy.OpReusePR, "pull request #%d is %s", n, strings.ToLower(p.State))
	case p.BaseRefName != x.snap.BaseBranch || p.HeadRefName != x.snap.HeadBranch:
		return nil, false, halt(policy.OpReusePR, "pull request #%d now merges %s into %s", n, p.HeadRefName, p.BaseRefName)
	case p.HeadSHA != x.finalHead:
		return nil, false, halt(policy.OpReusePR, "pull request #%d is at %s, not the final head %s", n, p.HeadSHA, x.finalHead)
	}
	return map[string]string{"pr_number": strconv.FormatInt(n, 10), "pr_url": p.URL, "pr_head_sha": p.HeadSHA}, false, nil
}

// requestReview renders the approved template with the verified final
// head, checks it, and posts it once: a comment by this user carrying the
// run's round-0 marker for that head is the receipt if it already exists.
func (x *exec) requestReview(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpRequestCodexReview
	tmpl := x.man.ReviewRequestBodyTemplate
	if sha256Hex(tmpl) != x.man.ReviewRequestBodyTemplateSHA256 {
		return nil, false, halt(op, "the template does not hash to review_request_body_template_sha256")
	}
	body := bootstrap.RenderReviewBody(tmpl, x.finalHead)
	marker := policy.RequestMarker(x.man.RunID, 0, x.finalHead)
	if strings.Count(body, marker) != 1 || strings.Contains(body, "{{") {
		return nil, false, halt(op, "the rendered request does not carry exactly the canonical marker %s", marker)
	}
	receipt := func(c observe.IssueComment) (map[string]string, error) {
		r, why := step.RequestReceipt(c, body)
		if why != "" {
			return nil, halt(op, "%s", why)
		}
		return r, nil
	}
	c, found, err := step.Once[observe.IssueComment]{
		Op: op, Fault: x.fault,
		Find: func(ctx context.Context) (*observe.IssueComment, error) { return x.ownRequest(ctx, marker) },
		Write: func(ctx context.Context) (*observe.IssueComment, error) {
			return x.d.GitHub.PostComment(ctx, x.repo, x.prNumber, body)
		},
		Unseen: func(err error) error {
			return fmt.Errorf("%w; the request is not visible yet, so nothing was sent again: run apply again to reconcile", err)
		},
	}.Do(ctx)
	if err != nil {
		return nil, false, err
	}
	r, err := receipt(*c)
	return r, found, err
}

// ownRequest finds this user's comment carrying marker on the PR.
func (x *exec) ownRequest(ctx context.Context, marker string) (*observe.IssueComment, error) {
	_, viewerID, err := x.viewer(ctx)
	if err != nil {
		return nil, err
	}
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.prNumber)
	if err != nil {
		return nil, err
	}
	found := step.OwnComments(obs.IssueComments, viewerID, marker)
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return &found[0], nil
	}
	return nil, halt(policy.OpRequestCodexReview, "%d comments carry the run's marker %s", len(found), marker)
}

func sha256Hex(s string) string { return step.SHA256Hex(s) }
