package step

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// Git runs sanitized git commands in one checkout.
type Git struct {
	Runner *gitx.Runner
	Root   string
}

// Run runs one git command and returns its trimmed stdout.
func (g Git) Run(ctx context.Context, args ...string) (string, error) {
	out, err := g.Runner.Run(ctx, g.Root, args[0], args[1:]...)
	return strings.TrimSpace(string(out)), err
}

// RunRaw runs one git command and returns its stdout untouched (for -z
// output and diffs).
func (g Git) RunRaw(ctx context.Context, args ...string) ([]byte, error) {
	return g.Runner.Run(ctx, g.Root, args[0], args[1:]...)
}

// RefSHA is the commit a ref names, "" when it does not exist.
func (g Git) RefSHA(ctx context.Context, ref string) (string, error) {
	out, err := g.Run(ctx, "rev-parse", "-q", "--verify", "--end-of-options", ref+"^{commit}")
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Err == nil && ge.ExitCode == 1 {
		return "", nil
	}
	return out, err
}

// RemoteTip reads refs/heads/branch on url; "" when the branch is absent.
func (g Git) RemoteTip(ctx context.Context, url, branch string) (string, error) {
	out, err := g.Run(ctx, "ls-remote", "--", url, "refs/heads/"+branch)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == "refs/heads/"+branch {
			return f[0], nil
		}
	}
	return "", nil
}

// Commit is what reconciliation reads of a commit object.
type Commit struct {
	Tree    string
	Parents []string
	Message string
}

// ReadCommit parses the commit object sha.
func (g Git) ReadCommit(ctx context.Context, sha string) (Commit, error) {
	if sha == "" {
		return Commit{}, errors.New("no commit")
	}
	out, err := g.Run(ctx, "cat-file", "commit", sha)
	if err != nil {
		return Commit{}, err
	}
	hdr, body, _ := strings.Cut(out, "\n\n")
	c := Commit{Message: body}
	for _, line := range strings.Split(hdr, "\n") {
		if v, ok := strings.CutPrefix(line, "parent "); ok {
			c.Parents = append(c.Parents, v)
		}
		if v, ok := strings.CutPrefix(line, "tree "); ok {
			c.Tree = v
		}
	}
	return c, nil
}

// HasTrailer reports whether the message carries line as one whole line.
func (c Commit) HasTrailer(line string) bool {
	return strings.Contains("\n"+c.Message+"\n", "\n"+line+"\n")
}

// CheckOurs verifies that c has exactly the one parent, the tree (when
// tree is not empty) and every trailer line.
func (c Commit) CheckOurs(parent, tree string, trailers ...string) error {
	switch {
	case len(c.Parents) != 1 || c.Parents[0] != parent:
		return fmt.Errorf("its parents are %v, not [%s]", c.Parents, parent)
	case tree != "" && c.Tree != tree:
		return fmt.Errorf("its tree is %s, not %s", c.Tree, tree)
	}
	for _, t := range trailers {
		if !c.HasTrailer(t) {
			return fmt.Errorf("it does not carry the trailer %q", t)
		}
	}
	return nil
}

// Identity is the commit author: the repository's own user.name and
// user.email (the sanitized runner reads no global config), else the
// GitHub account's login and noreply address.
func (g Git) Identity(ctx context.Context, login string, id int64) (string, string) {
	name, _ := g.Run(ctx, "config", "--local", "--get", "user.name")
	email, _ := g.Run(ctx, "config", "--local", "--get", "user.email")
	if name != "" && email != "" {
		return name, email
	}
	return login, fmt.Sprintf("%d+%s@users.noreply.github.com", id, login)
}
