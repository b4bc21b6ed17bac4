package classify

import (
	"time"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// instant parses a timestamp GitHub reported; ok is false for anything that
// is not ISO-8601 with a timezone, and such an item is never compared.
func instant(s string) (time.Time, bool) {
	t, err := schema.ParseTime(s)
	return t, err == nil
}

// productTime rewrites a GitHub timestamp in the product's own form (UTC,
// second precision) so every timestamp a state carries has one spelling and
// equal instants compare equal as strings across rounds.
func productTime(s string) (string, bool) {
	t, ok := instant(s)
	if !ok {
		return "", false
	}
	return schema.FormatTime(t), true
}

// requestClock is a parsed Request; valid is false when there is no request
// or its creation time cannot be read, and then nothing qualifies.
type requestClock struct {
	id      int64
	created time.Time
	head    string
	valid   bool
}

func newRequestClock(r *Request) requestClock {
	if r == nil {
		return requestClock{}
	}
	t, ok := instant(r.CreatedAt)
	head := lowerHex(r.HeadSHA)
	return requestClock{id: r.CommentID, created: t, head: head, valid: ok && r.CommentID > 0 && isSHA1(head)}
}

// after reports whether a GitHub timestamp is at or after the request.
func (c requestClock) after(s string) bool {
	t, ok := instant(s)
	return c.valid && ok && !t.Before(c.created)
}

// deadline is request_created_at + request_timeout, in product form.
func deadline(created time.Time) string {
	return schema.FormatTime(created.Add(policy.RequestTimeoutSecs * time.Second))
}

func productTimeOf(t time.Time) string { return schema.FormatTime(t) }
