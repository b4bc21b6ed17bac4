package step

import (
	"strings"

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
