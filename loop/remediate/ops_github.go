package remediate

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/step"
)

// replyBody is the reply posted on each fixed thread.
func (x *exec) replyBody(threadID string) string {
	return fmt.Sprintf("Addressed in %s (fix round %d).\n\n%s", x.commitSHA, x.round, ReplyMarker(x.m.RunID, x.round, threadID))
}

// ownReply finds this user's reply carrying marker in the thread.
func ownReply(obs *observe.PR, viewerID int64, threadID, marker string) (found *observe.ThreadComment, exists bool, n int) {
	for _, t := range obs.Threads {
		if t.ID != threadID {
			continue
		}
		exists = true
		for i := range t.Comments {
			if c := &t.Comments[i]; c.Author.ID == viewerID && strings.Contains(c.Body, marker) {
				n++
				found = c
			}
		}
	}
	return found, exists, n
}

// reply posts one reply per actionable thread, each once: a reply by this
// user carrying the thread's marker for this run and round is its receipt.
func (x *exec) reply(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpReplyToCodexThreads
	_, viewerID, err := x.viewer(ctx)
	if err != nil {
		return nil, false, err
	}
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
	if err != nil {
		return nil, false, err
	}
	receipt := map[string]string{"replies": strconv.Itoa(len(x.m.ActionableThreads))}
	allFound := true
	for k, t := range x.m.ActionableThreads {
		marker := ReplyMarker(x.m.RunID, x.round, t.ID)
		c, exists, n := ownReply(obs, viewerID, t.ID, marker)
		switch {
		case !exists:
			return nil, false, halt(op, "thread %s is gone", t.ID)
		case n > 1:
			return nil, false, halt(op, "%d replies in thread %s carry the marker of round %d", n, t.ID, x.round)
		}
		if c == nil {
			allFound = false
			point := fmt.Sprintf("%s/%d", op, k+1)
			if err := x.fault("before:" + point); err != nil {
				return nil, false, err
			}
			c, err = x.d.GitHub.ReplyToThread(ctx, t.ID, x.replyBody(t.ID))
			if err != nil {
				if !step.DeliveryUnknown(err) {
					return nil, false, err
				}
				again, _, oerr := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
				if oerr != nil {
					return nil, false, oerr
				}
				if c, _, _ = ownReply(again, viewerID, t.ID, marker); c == nil {
					return nil, false, fmt.Errorf("%w; the reply to %s is not visible yet, so nothing was sent again: the next wakeup reconciles", err, t.ID)
				}
			}
			if err := x.fault("after:" + point); err != nil {
				return nil, false, err
			}
		}
		receipt[fmt.Sprintf("reply_%d", k+1)] = t.ID + " " + c.NodeID
	}
	return receipt, allFound, nil
}

// request renders round n's template with the pushed head, checks it and
// posts it once: this user's comment carrying the marker is the receipt.
func (x *exec) request(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpRequestCodexReview
	m := x.m
	tmpl := m.ReviewRequestBodyTemplate
	if tmpl != policy.FixReviewTemplate(m.RunID, x.round) || step.SHA256Hex(tmpl) != m.ReviewRequestBodyTemplateSHA256 {
		return nil, false, halt(op, "the template is not round %d's or does not hash to review_request_body_template_sha256", x.round)
	}
	body := bootstrap.RenderReviewBody(tmpl, x.commitSHA)
	marker := policy.RequestMarker(m.RunID, x.round, x.commitSHA)
	if strings.Count(body, marker) != 1 || strings.Contains(body, "{{") {
		return nil, false, halt(op, "the rendered request does not carry exactly the marker %s", marker)
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
			return x.d.GitHub.PostComment(ctx, x.repo, m.PRNumber, body)
		},
		Unseen: func(error) error {
			return fmt.Errorf("the request's delivery is unknown and it is not visible yet, so nothing was sent again: the next wakeup reconciles")
		},
	}.Do(ctx)
	if err != nil {
		return nil, false, err
	}
	r, err := receipt(*c)
	return r, found, err
}

func (x *exec) ownRequest(ctx context.Context, marker string) (*observe.IssueComment, error) {
	_, viewerID, err := x.viewer(ctx)
	if err != nil {
		return nil, err
	}
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
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
	return nil, halt(policy.OpRequestCodexReview, "%d comments carry the marker %s", len(found), marker)
}

// update hands the new round to the caller (checkpoint + registry), which
// must treat the same Update twice as once.
func (x *exec) update(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpUpdateAutomation
	u := Update{Round: x.round, FinalHeadSHA: x.commitSHA, RequestCommentID: x.commentID, RequestCreatedAt: x.requestAt, CompletedRequestKey: x.m.RequestKey}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if err := x.job.UpdateAutomation(ctx, u); err != nil {
		return nil, false, halt(op, "recording round %d: %v", x.round, err)
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	return updateReceipt(u), false, nil
}

// updateReceipt is update-automation's receipt of u.
func updateReceipt(u Update) map[string]string {
	return map[string]string{"round": strconv.Itoa(u.Round), "request_head_sha": u.FinalHeadSHA,
		"request_comment_id": strconv.FormatInt(u.RequestCommentID, 10), "completed_request_key": u.CompletedRequestKey}
}

// RecordedUpdateReceipt reconciles an update-automation reserved with
// intent whose process died after the caller recorded u (the checkpoint
// at the new round, the round's plan dropped) and before the receipt: the
// caller's record is the observation. It returns the receipt update
// writes when the reservation announced exactly u's round, head and
// request comment, and an error otherwise (the record is not this
// reservation's; nothing is receipted).
func RecordedUpdateReceipt(intent map[string]string, u Update) (map[string]string, error) {
	if intent["round"] != strconv.Itoa(u.Round) || intent["head"] != u.FinalHeadSHA || intent["comment_id"] != strconv.FormatInt(u.RequestCommentID, 10) {
		return nil, fmt.Errorf("%s was reserved for round %s, head %s, request %s; the recorded round is %d, head %s, request %d",
			policy.OpUpdateAutomation, intent["round"], intent["head"], intent["comment_id"], u.Round, u.FinalHeadSHA, u.RequestCommentID)
	}
	return updateReceipt(u), nil
}
