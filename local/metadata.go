package local

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/prloop/gh-prloop/gitx"
)

// operationFiles are the per-worktree markers of an operation in progress
// (merge, cherry-pick, revert, bisect, rebase); committing in the middle of
// one means something else, so their presence and content are bound.
var operationFiles = []string{
	"BISECT_LOG", "CHERRY_PICK_HEAD", "MERGE_HEAD", "MERGE_MODE", "REVERT_HEAD",
	"rebase-apply", "rebase-merge", "sequencer",
}

// metadataValue is the normalized git metadata observation: HEAD, every ref,
// the index file, info/ files, shallow and alternates, and in-progress
// operation markers.
func metadataValue(ctx context.Context, r *gitx.Runner, root, gitDir, commonDir string) (any, error) {
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return nil, fmt.Errorf("local: reading HEAD: %w", err)
	}
	out, err := r.Run(ctx, root, "for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)")
	if err != nil {
		return nil, err
	}
	refs := []any{}
	for line := range bytes.Lines(out) {
		f := bytes.Split(bytes.TrimSuffix(line, []byte("\n")), []byte{0})
		if len(f) != 3 {
			return nil, fmt.Errorf("local: malformed for-each-ref line %q", line)
		}
		var sym any
		if len(f[2]) > 0 {
			sym = gitx.BytesValue(f[2])
		}
		refs = append(refs, map[string]any{"name": gitx.BytesValue(f[0]), "oid": string(f[1]), "symref": sym})
	}
	index, err := stateValue(filepath.Join(gitDir, "index"))
	if err != nil {
		return nil, err
	}
	info, err := dirFiles(filepath.Join(commonDir, "info"))
	if err != nil {
		return nil, err
	}
	worktreeInfo := []any{}
	if gitDir != commonDir {
		if worktreeInfo, err = dirFiles(filepath.Join(gitDir, "info")); err != nil {
			return nil, err
		}
	}
	shallow, err := stateValue(filepath.Join(commonDir, "shallow"))
	if err != nil {
		return nil, err
	}
	alternates, err := stateValue(filepath.Join(commonDir, "objects", "info", "alternates"))
	if err != nil {
		return nil, err
	}
	ops := make([]any, 0, len(operationFiles))
	for _, name := range operationFiles {
		st, err := lstateValue(filepath.Join(gitDir, name))
		if err != nil {
			return nil, err
		}
		ops = append(ops, map[string]any{"name": name, "state": st})
	}
	return map[string]any{
		"head":          gitx.BytesValue(head),
		"refs":          refs,
		"index":         index,
		"info":          info,
		"worktree_info": worktreeInfo,
		"shallow":       shallow,
		"alternates":    alternates,
		"operations":    ops,
	}, nil
}

// dirFiles lists every file under dir (recursively) with its state, sorted
// by relative path; a missing dir is an empty list.
func dirFiles(dir string) ([]any, error) {
	var rels []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && isMissing(err) {
				return fs.SkipAll
			}
			return err
		}
		if p == dir || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rels = append(rels, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(rels)
	out := make([]any, 0, len(rels))
	for _, rel := range rels {
		st, err := lstateValue(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"path": gitx.BytesValue([]byte(rel)), "state": st})
	}
	return out, nil
}
