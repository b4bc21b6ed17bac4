package planner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/tui/approval"
)

// maxShownFile bounds what the console loads per side of a file; a larger
// file is summarized as binary-sized rather than slowing the approval down.
const maxShownFile = 1 << 20

// Files loads both sides of every changed path for the approval console's
// per-file diff: HEAD's blob and the worktree file (what `git add -A` would
// stage). Reading is display only; the plan binds these through diff_sha256.
func Files(ctx context.Context, git *gitx.Runner, p *Plan) ([]approval.File, error) {
	out := make([]approval.File, 0, len(p.Obs.Changes))
	for _, c := range p.Obs.Changes {
		f := approval.File{Path: string(c.Path)}
		switch {
		case c.OldMode == "" || c.OldMode == "000000":
			f.Status = approval.Added
		case c.NewMode == "" || c.NewMode == "000000":
			f.Status = approval.Deleted
		}
		var oldB, newB []byte
		if f.Status != approval.Added && c.OldBlob != "" {
			b, err := git.Run(ctx, p.Obs.Root, "cat-file", "blob", c.OldBlob)
			if err != nil {
				return nil, err
			}
			oldB = b
		}
		if f.Status != approval.Deleted {
			b, err := readSide(filepath.Join(p.Obs.Root, string(c.Path)), c.NewMode)
			if err != nil {
				return nil, err
			}
			newB = b
		}
		if isBinary(oldB) || isBinary(newB) {
			f.Binary = true
		} else {
			f.Old, f.New = string(oldB), string(newB)
		}
		out = append(out, f)
	}
	return out, nil
}

func readSide(path, mode string) ([]byte, error) {
	if mode == "120000" {
		target, err := os.Readlink(path)
		return []byte(target), err
	}
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxShownFile {
		return []byte{0}, nil // shown as binary: too large to render usefully
	}
	return os.ReadFile(path)
}

func isBinary(b []byte) bool {
	return len(b) > maxShownFile || bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}
