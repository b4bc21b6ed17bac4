package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/gitx"
)

// Worktree locates a checkout by real absolute paths.
type Worktree struct {
	Root      string // top of the working tree
	GitDir    string // this worktree's git directory
	CommonDir string // the repository's shared git directory
}

// Discover finds the worktree containing dir.
func Discover(ctx context.Context, r *gitx.Runner, dir string) (Worktree, error) {
	out, err := r.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir")
	if err != nil {
		var ge *gitx.Error
		if errors.As(err, &ge) && ge.Err == nil {
			// git's own words are not shown: they name no fix.
			if strings.Contains(ge.Stderr, "dubious ownership") {
				return Worktree{}, refuse(CodeNotWorktree, "git refuses %s because another user owns it; add it to safe.directory or run as its owner", dir)
			}
			return Worktree{}, refuse(CodeNotWorktree, "%s is not inside a git checkout; run from your repository or pass -C DIR", dir)
		}
		return Worktree{}, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 3 || lines[0] == "" {
		// A newline inside a directory name makes rev-parse's line output
		// ambiguous; such a root is refused rather than guessed.
		return Worktree{}, refuse(CodeNotWorktree, "cannot read the worktree location of %s (bare repository, or a newline in its path)", dir)
	}
	var w Worktree
	for i, dst := range []*string{&w.Root, &w.GitDir, &w.CommonDir} {
		real, err := filepath.EvalSymlinks(lines[i])
		if err != nil {
			return Worktree{}, fmt.Errorf("local: resolving %s: %w", lines[i], err)
		}
		*dst = real
	}
	return w, nil
}

// scopeValue is the normalized filesystem scope: the real roots a git
// command may read or write (the worktree and the git directories), with
// the kind so the two digests are distinct facts.
func (w Worktree) scopeValue(kind string) any {
	roots := []string{w.Root, w.GitDir, w.CommonDir}
	slices.SortFunc(roots, func(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) })
	roots = slices.Compact(roots)
	vals := make([]any, len(roots))
	for i, r := range roots {
		vals[i] = gitx.BytesValue([]byte(r))
	}
	return map[string]any{"kind": kind, "roots": vals}
}

// ReadScopeSHA256 and WriteScopeSHA256 are the boundary's filesystem scope
// digests.
func (w Worktree) ReadScopeSHA256() string  { return mustHash(w.scopeValue("read")) }
func (w Worktree) WriteScopeSHA256() string { return mustHash(w.scopeValue("write")) }

// mustHash hashes a value built only from strings, BytesValue, nil, slices
// and maps, which always has a canonical encoding.
func mustHash(v any) string {
	h, err := canon.HashValue(v)
	if err != nil {
		panic("local: normalized observation is not canonical JSON: " + err.Error())
	}
	return h
}
