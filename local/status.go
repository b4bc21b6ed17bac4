package local

import (
	"context"

	"github.com/prloop/gh-prloop/gitx"
)

// statusArgs is the one status command whose output is the worktree status
// observation. Renames are off so every path is reported under its own name,
// which is also how the pending change is derived from it.
// --ignore-submodules=dirty keeps git from running status inside submodules,
// whose own configuration (filters, fsmonitor) was never checked; a moved
// submodule commit is still reported, and refused.
var statusArgs = []string{"--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"}

func readStatus(ctx context.Context, r *gitx.Runner, root string) ([]gitx.StatusEntry, error) {
	out, err := r.Run(ctx, root, "status", statusArgs...)
	if err != nil {
		return nil, err
	}
	return gitx.ParseStatusV2(out)
}

// statusValue is the normalized status observation: every record in git's
// order, fields verbatim, paths as BytesValue.
func statusValue(entries []gitx.StatusEntry) any {
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		fields := make([]any, len(e.Fields))
		for i, f := range e.Fields {
			fields[i] = f
		}
		var orig any
		if e.OrigPath != nil {
			orig = gitx.BytesValue(e.OrigPath)
		}
		out = append(out, map[string]any{
			"kind":      string(e.Kind),
			"fields":    fields,
			"path":      gitx.BytesValue(e.Path),
			"orig_path": orig,
		})
	}
	return map[string]any{"entries": out}
}
