package testbed

import (
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/ghsim"
)

// merge is the simulator's Merger on the bed: GitHub's merge button in the
// git server's bare repository. A merge commit (base and head as parents)
// or, for squash and rebase, a single commit on the base with the merged
// tree (a rebase that keeps the head's commits is not modelled); the base
// ref moves only if it still points where the merge started. A conflict
// refuses the merge. It runs under the simulator's lock and so never calls
// back into it: the simulator moves its own branch from the answer.
func (b *Bed) merge(m ghsim.MergeRequest) (string, error) {
	if !strings.EqualFold(m.FullName, Repository) {
		return "", fmt.Errorf("testbed: no git repository for %s", m.FullName)
	}
	dir := b.GitServer.RepoDir(Owner, Name)
	tree, err := b.Setup(dir, "merge-tree", "--write-tree", m.BaseSHA, m.HeadSHA)
	if err != nil {
		return "", err
	}
	tree, _, _ = strings.Cut(tree, "\n") // a clean merge prints only the tree
	args := []string{"commit-tree", tree, "-p", m.BaseSHA}
	if m.Method == "merge" {
		args = append(args, "-p", m.HeadSHA)
	}
	args = append(args, "-m", m.Title)
	if m.Message != "" {
		args = append(args, "-m", m.Message)
	}
	date := b.clock.next()
	sha, err := b.setup(dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
	if err != nil {
		return "", err
	}
	if _, err := b.Setup(dir, "update-ref", "refs/heads/"+m.Base, sha, m.BaseSHA); err != nil {
		return "", err
	}
	return sha, nil
}
