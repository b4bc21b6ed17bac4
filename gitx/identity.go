package gitx

import (
	"errors"
	"slices"
	"strings"
)

// WithIdentity returns a runner that also sets git's author and committer
// to name <email>. Writing a commit needs an identity, and the sanitized
// invocation ignores the user's global config; the executor reads the
// repository's own user.name/user.email (or falls back to the GitHub
// account) and hands it here. The identity is an input of one commit, not
// of the invocation, so invocation_sha256 does not change.
func (r *Runner) WithIdentity(name, email string) (*Runner, error) {
	for _, v := range []string{name, email} {
		if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "\x00\n<>") {
			return nil, errors.New("gitx: a commit identity needs a name and an email without NUL, newline, '<' or '>'")
		}
	}
	c := &Runner{inv: r.inv, sha256: r.sha256}
	c.env = slices.Clone(r.env)
	c.env = append(c.env,
		"GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email,
		"GIT_COMMITTER_NAME="+name, "GIT_COMMITTER_EMAIL="+email)
	return c, nil
}
