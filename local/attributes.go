package local

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// indexEntry is one record of `git ls-files -s -z`.
type indexEntry struct {
	Mode, OID, Stage string
	Path             []byte
}

func readIndex(ctx context.Context, r *gitx.Runner, root string) ([]indexEntry, error) {
	out, err := r.Run(ctx, root, "ls-files", "-z", "-s", "--full-name")
	if err != nil {
		return nil, err
	}
	recs, err := gitx.SplitZ(out)
	if err != nil {
		return nil, err
	}
	entries := make([]indexEntry, 0, len(recs))
	for _, rec := range recs {
		meta, p, ok := bytes.Cut(rec, []byte("\t"))
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 || len(p) == 0 {
			return nil, fmt.Errorf("local: malformed ls-files record %q", rec)
		}
		entries = append(entries, indexEntry{Mode: f[0], OID: f[1], Stage: f[2], Path: p})
	}
	return entries, nil
}

const attributesName = ".gitattributes"

// attributesValue is the normalized attributes observation: the configured
// attributes file, info/attributes, and every in-tree .gitattributes that
// can apply to a path git would look at (one in each directory holding an
// indexed or untracked path, worktree copy and index copy both, since git
// reads the worktree copy and falls back to the index one).
func attributesValue(root, commonDir string, c *config, index []indexEntry, untracked [][]byte) (any, error) {
	var attrFile any
	if v, _, found := c.get("core.attributesfile"); found && v != "" {
		p := v
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			// Under the runner HOME is SafeHome, so this is what git reads.
			p = filepath.Join(gitx.SafeHome, rest)
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		st, err := stateValue(p)
		if err != nil {
			return nil, err
		}
		attrFile = map[string]any{"configured": gitx.BytesValue([]byte(v)), "path": gitx.BytesValue([]byte(p)), "state": st}
	}
	info, err := stateValue(filepath.Join(commonDir, "info", "attributes"))
	if err != nil {
		return nil, err
	}

	indexed := map[string]indexEntry{}
	dirs := map[string]bool{"": true}
	addDirs := func(p string) {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, e := range index {
		p := string(e.Path)
		addDirs(p)
		if path.Base(p) == attributesName {
			indexed[p] = e
		}
	}
	for _, p := range untracked {
		addDirs(string(p))
	}
	candidates := make([]string, 0, len(dirs))
	for d := range dirs {
		candidates = append(candidates, path.Join(d, attributesName))
	}
	for p := range indexed {
		if !dirs[path.Dir(p)] && path.Dir(p) != "." {
			candidates = append(candidates, p)
		}
	}
	slices.Sort(candidates)
	candidates = slices.Compact(candidates)

	tree := []any{}
	for _, p := range candidates {
		// In-tree .gitattributes symlinks are not followed by git, so the
		// link itself is what is recorded.
		wt, err := lstateValue(filepath.Join(root, p))
		if err != nil {
			return nil, err
		}
		var idx any
		if e, ok := indexed[p]; ok {
			idx = map[string]any{"mode": e.Mode, "blob": e.OID, "stage": e.Stage}
		}
		if idx == nil && wt.(map[string]any)["type"] == "missing" {
			continue
		}
		tree = append(tree, map[string]any{"path": gitx.BytesValue([]byte(p)), "index": idx, "worktree": wt})
	}
	return map[string]any{"attributes_file": attrFile, "info_attributes": info, "tree": tree}, nil
}
