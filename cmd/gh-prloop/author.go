package main

import (
	"context"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/step"
)

// commitAuthor is the author the executors will put on the commits a plan
// creates, as "Name <email>", so the approver sees it before typing the
// hash. It is the executors' own rule (step.Git.Identity), not a copy.
func commitAuthor(ctx context.Context, git *gitx.Runner, root, login string, id int64) string {
	name, email := step.Git{Runner: git, Root: root}.Identity(ctx, login, id)
	return name + " <" + email + ">"
}
