package bootstrap

import (
	"time"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// deadlineFor is the policy deadline of a request, in the product's form.
// A created_at with a fraction of a second has no such deadline (the result
// would not be the same instant), so it is refused rather than rounded.
func deadlineFor(createdAt string) (string, error) {
	t, err := schema.ParseTime(createdAt)
	if err != nil {
		return "", err
	}
	return schema.FormatTime(t.Add(policy.RequestTimeoutSecs * time.Second)), nil
}
