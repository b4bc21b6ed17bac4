package ghclient

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/prloop/gh-prloop/core/observe"
)

// Writes. None is retried after it may have reached GitHub (see retry.go):
// an ambiguous failure returns an error wrapping *DeliveryUnknownError and
// the caller must re-observe before deciding anything.

// NewPR is the content of a pull request to open.
type NewPR struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	Head  string `json:"head"` // branch, or owner:branch for a fork
	Base  string `json:"base"`
	Draft bool   `json:"draft"`
}

// CreatePR opens a pull request.
func (c *Client) CreatePR(ctx context.Context, repo Repo, pr NewPR) (*PRInfo, error) {
	if err := repo.validate(); err != nil {
		return nil, err
	}
	var p restPull
	if err := c.send(ctx, http.MethodPost, repo.path("pulls"), pr, &p); err != nil {
		return nil, c.red.err(fmt.Errorf("create pull request: %w", err))
	}
	if p.Number <= 0 {
		return nil, incomplete("create pull request: answer without a number")
	}
	info := p.info()
	return &info, nil
}

// PostComment adds a conversation comment to a pull request.
func (c *Client) PostComment(ctx context.Context, repo Repo, number int64, body string) (*observe.IssueComment, error) {
	if err := repo.validate(); err != nil {
		return nil, err
	}
	var ic restIssueComment
	path := repo.path("issues", strconv.FormatInt(number, 10), "comments")
	if err := c.send(ctx, http.MethodPost, path, map[string]string{"body": body}, &ic); err != nil {
		return nil, c.red.err(fmt.Errorf("post comment: %w", err))
	}
	if ic.ID <= 0 {
		return nil, incomplete("post comment: answer without an id")
	}
	out := ic.observe()
	return &out, nil
}

// ReplyToThread adds a reply to a review thread (by node id).
func (c *Client) ReplyToThread(ctx context.Context, threadID, body string) (*observe.ThreadComment, error) {
	var data struct {
		Add *struct {
			Comment *gqlReviewComment `json:"comment"`
		} `json:"addPullRequestReviewThreadReply"`
	}
	vars := map[string]any{"threadId": threadID, "body": body}
	if err := c.mutate(ctx, replyThreadDoc, vars, &data); err != nil {
		return nil, c.red.err(fmt.Errorf("reply to thread %s: %w", threadID, err))
	}
	if data.Add == nil || data.Add.Comment == nil {
		return nil, incomplete("reply to thread %s: answer without the comment", threadID)
	}
	if err := data.Add.Comment.check(); err != nil {
		return nil, err
	}
	out := data.Add.Comment.threadComment()
	return &out, nil
}

// ResolveThread marks a review thread resolved.
func (c *Client) ResolveThread(ctx context.Context, threadID string) error {
	var data struct {
		Resolve *struct {
			Thread *struct {
				ID         string `json:"id"`
				IsResolved bool   `json:"isResolved"`
			} `json:"thread"`
		} `json:"resolveReviewThread"`
	}
	if err := c.mutate(ctx, resolveDoc, map[string]any{"threadId": threadID}, &data); err != nil {
		return c.red.err(fmt.Errorf("resolve thread %s: %w", threadID, err))
	}
	if data.Resolve == nil || data.Resolve.Thread == nil || !data.Resolve.Thread.IsResolved {
		return incomplete("resolve thread %s: GitHub did not report it resolved", threadID)
	}
	return nil
}

// MarkReadyForReview takes a pull request out of draft. A pull request that
// is already ready is left alone, so a repeated plan step is harmless.
func (c *Client) MarkReadyForReview(ctx context.Context, repo Repo, number int64) error {
	if err := repo.validate(); err != nil {
		return err
	}
	var q struct {
		Repository *struct {
			PullRequest *struct {
				ID      string `json:"id"`
				IsDraft bool   `json:"isDraft"`
			} `json:"pullRequest"`
		} `json:"repository"`
	}
	vars := map[string]any{"owner": repo.Owner, "name": repo.Name, "number": number}
	if err := c.query(ctx, prNodeIDDoc, vars, &q); err != nil {
		return c.red.err(fmt.Errorf("mark ready for review: %w", err))
	}
	if q.Repository == nil || q.Repository.PullRequest == nil || q.Repository.PullRequest.ID == "" {
		return incomplete("mark ready for review: pull request %s#%d missing", repo, number)
	}
	if !q.Repository.PullRequest.IsDraft {
		return nil
	}
	var data struct {
		Mark *struct {
			PullRequest *struct {
				IsDraft bool `json:"isDraft"`
			} `json:"pullRequest"`
		} `json:"markPullRequestReadyForReview"`
	}
	if err := c.mutate(ctx, markReadyDoc, map[string]any{"pullRequestId": q.Repository.PullRequest.ID}, &data); err != nil {
		return c.red.err(fmt.Errorf("mark ready for review: %w", err))
	}
	if data.Mark == nil || data.Mark.PullRequest == nil || data.Mark.PullRequest.IsDraft {
		return incomplete("mark ready for review: GitHub still reports a draft")
	}
	return nil
}
