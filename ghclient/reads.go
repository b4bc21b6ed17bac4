package ghclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/prloop/gh-prloop/core/observe"
)

// Viewer returns the authenticated user's login and database id.
func (c *Client) Viewer(ctx context.Context) (string, int64, error) {
	var u restUser
	if err := c.getJSON(ctx, "user", &u); err != nil {
		return "", 0, c.red.err(err)
	}
	if u.Login == "" || u.ID <= 0 {
		return "", 0, incomplete("GET /user without login or id")
	}
	return u.Login, u.ID, nil
}

// PullRequest reads one pull request by number through REST.
func (c *Client) PullRequest(ctx context.Context, repo Repo, number int64) (*PRInfo, Cost, error) {
	ctx, m := withMeter(ctx)
	if err := repo.validate(); err != nil {
		return nil, m.snapshot(), err
	}
	var p restPull
	if err := c.getJSON(ctx, repo.path("pulls", strconv.FormatInt(number, 10)), &p); err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	if p.Number != number || p.Head.SHA == "" {
		return nil, m.snapshot(), incomplete("pull request %s#%d: answer without number or head", repo, number)
	}
	info := p.info()
	return &info, m.snapshot(), nil
}

// ResolvePRURL parses a pull request URL and checks that it names this
// client's host.
func (c *Client) ResolvePRURL(raw string) (Repo, int64, error) {
	ref, err := ParsePRURL(raw)
	if err != nil {
		return Repo{}, 0, err
	}
	if !sameHost(ref.Host, c.host) {
		return Repo{}, 0, fmt.Errorf("pull request URL is on %s, but gh-prloop is using %s", ref.Host, c.host)
	}
	return ref.Repo, ref.Number, nil
}

// PullRequestByURL reads the pull request a web URL names.
func (c *Client) PullRequestByURL(ctx context.Context, raw string) (*PRInfo, Cost, error) {
	repo, n, err := c.ResolvePRURL(raw)
	if err != nil {
		return nil, newCost(), err
	}
	return c.PullRequest(ctx, repo, n)
}

// OpenPRsForHead lists the open pull requests whose head is
// headOwner:branch, in GitHub's order.
func (c *Client) OpenPRsForHead(ctx context.Context, repo Repo, headOwner, branch string) ([]PRInfo, Cost, error) {
	ctx, m := withMeter(ctx)
	q := url.Values{"state": {"open"}, "head": {headOwner + ":" + branch}, "per_page": {"100"}}
	out := []PRInfo{}
	err := c.getPages(ctx, repo.path("pulls")+"?"+q.Encode(), func(b []byte) error {
		var page []*restPull
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		for _, p := range page {
			if p == nil {
				return incomplete("null pull request in list")
			}
			out = append(out, p.info())
		}
		return nil
	})
	if err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	return out, m.snapshot(), nil
}

// ReactionsForComment lists every reaction on an issue (PR conversation)
// comment; Subject is the comment id in decimal.
func (c *Client) ReactionsForComment(ctx context.Context, repo Repo, commentID int64) ([]observe.Reaction, Cost, error) {
	ctx, m := withMeter(ctx)
	out, err := c.commentReactions(ctx, repo, commentID)
	if err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	return out, m.snapshot(), nil
}

// commentReactions lists every reaction on one issue comment, counted on
// the caller's meter.
func (c *Client) commentReactions(ctx context.Context, repo Repo, commentID int64) ([]observe.Reaction, error) {
	subject := strconv.FormatInt(commentID, 10)
	out := []observe.Reaction{}
	err := c.getPages(ctx, repo.path("issues", "comments", subject, "reactions")+"?per_page=100", func(b []byte) error {
		var page []*restReaction
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		for _, r := range page {
			if r == nil {
				return incomplete("null reaction in list")
			}
			out = append(out, observe.Reaction{Content: r.Content, User: r.User.actor(), CreatedAt: r.CreatedAt, Subject: subject})
		}
		return nil
	})
	return out, err
}

// prReactions lists every reaction on the pull request itself (the issue
// reactions endpoint), for the rare PR whose GraphQL reaction groups do not
// fit in one page.
func (c *Client) prReactions(ctx context.Context, repo Repo, number int64) ([]observe.Reaction, error) {
	out := []observe.Reaction{}
	err := c.getPages(ctx, repo.path("issues", strconv.FormatInt(number, 10), "reactions")+"?per_page=100", func(b []byte) error {
		var page []*restReaction
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		for _, r := range page {
			if r == nil {
				return incomplete("null reaction in list")
			}
			out = append(out, observe.Reaction{Content: r.Content, User: r.User.actor(), CreatedAt: r.CreatedAt, Subject: "pr"})
		}
		return nil
	})
	return out, err
}

// CheckRuns lists the latest check run of each name on ref.
func (c *Client) CheckRuns(ctx context.Context, repo Repo, ref string) ([]observe.CheckRun, Cost, error) {
	ctx, m := withMeter(ctx)
	out := []observe.CheckRun{}
	total := -1
	err := c.getPages(ctx, repo.path("commits", ref, "check-runs")+"?per_page=100", func(b []byte) error {
		var page restCheckRuns
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		total = page.TotalCount
		for _, r := range page.CheckRuns {
			if r == nil {
				return incomplete("null check run in list")
			}
			out = append(out, observe.CheckRun{Name: r.Name, Status: r.Status, Conclusion: str(r.Conclusion)})
		}
		return nil
	})
	if err == nil && total != len(out) {
		err = incomplete("check runs of %s: read %d of %d", ref, len(out), total)
	}
	if err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	return out, m.snapshot(), nil
}

// CombinedStatus reads the legacy statuses of ref, every page.
func (c *Client) CombinedStatus(ctx context.Context, repo Repo, ref string) (*CombinedStatus, Cost, error) {
	ctx, m := withMeter(ctx)
	out := &CombinedStatus{Statuses: []observe.CommitStatus{}}
	total := -1
	err := c.getPages(ctx, repo.path("commits", ref, "status")+"?per_page=100", func(b []byte) error {
		var page restCombinedStatus
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		out.State, out.SHA, total = page.State, page.SHA, page.TotalCount
		for _, s := range page.Statuses {
			if s == nil {
				return incomplete("null status in list")
			}
			out.Statuses = append(out.Statuses, observe.CommitStatus{Context: s.Context, State: s.State})
		}
		return nil
	})
	if err == nil && total != len(out.Statuses) {
		err = incomplete("statuses of %s: read %d of %d", ref, len(out.Statuses), total)
	}
	if err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	return out, m.snapshot(), nil
}

// BranchTip returns the commit a branch points at.
func (c *Client) BranchTip(ctx context.Context, repo Repo, branch string) (string, Cost, error) {
	ctx, m := withMeter(ctx)
	var r restGitRef
	if err := c.getJSON(ctx, repo.path("git", "ref", "heads", branch), &r); err != nil {
		return "", m.snapshot(), c.red.err(err)
	}
	if r.Ref != "refs/heads/"+branch || r.Object == nil || r.Object.Type != "commit" || r.Object.SHA == "" {
		return "", m.snapshot(), incomplete("ref heads/%s: answer is not that branch's commit", branch)
	}
	return r.Object.SHA, m.snapshot(), nil
}

// BranchRules lists every ruleset rule that applies to branch.
func (c *Client) BranchRules(ctx context.Context, repo Repo, branch string) ([]BranchRule, Cost, error) {
	ctx, m := withMeter(ctx)
	out := []BranchRule{}
	err := c.getPages(ctx, repo.path("rules", "branches", branch)+"?per_page=100", func(b []byte) error {
		var page []*BranchRule
		if err := json.Unmarshal(b, &page); err != nil {
			return err
		}
		for _, r := range page {
			if r == nil || r.Type == "" {
				return incomplete("rule without type")
			}
			out = append(out, *r)
		}
		return nil
	})
	if err != nil {
		return nil, m.snapshot(), c.red.err(err)
	}
	return out, m.snapshot(), nil
}
