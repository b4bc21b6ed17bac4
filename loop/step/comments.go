package step

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/schema"

	"github.com/prloop/gh-prloop/core/observe"
)

// OwnComments are the comments by viewerID that carry marker: how an
// executor finds a request it may already have posted before a crash. More
// than one is the caller's halt, never a pick.
func OwnComments(comments []observe.IssueComment, viewerID int64, marker string) []observe.IssueComment {
	var found []observe.IssueComment
	for _, c := range comments {
		if c.Author.ID == viewerID && strings.Contains(c.Body, marker) {
			found = append(found, c)
		}
	}
	return found
}

// RequestReceipt is the receipt of a request comment found or posted with
// the approved body, or why the comment cannot be that request (the caller
// halts with it): both executors receipt their requests by this one rule.
func RequestReceipt(c observe.IssueComment, body string) (map[string]string, string) {
	at, err := schema.ParseTime(c.CreatedAt)
	if err != nil {
		return nil, fmt.Sprintf("comment %d has an unreadable creation time %q", c.ID, c.CreatedAt)
	}
	if c.Body != body {
		return nil, fmt.Sprintf("comment %d carries the marker but is not the approved body", c.ID)
	}
	return map[string]string{"comment_id": strconv.FormatInt(c.ID, 10), "created_at": schema.FormatTime(at), "body_sha256": SHA256Hex(body)}, ""
}
