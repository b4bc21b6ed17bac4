package planner

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strconv"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/tui/approval"
)

// maxLoadedFile bounds what is read per side of a file. It is far above
// anything a human reviews line by line; a larger side is refused rather
// than shown in part, since what is approved must be what can be seen.
const maxLoadedFile = 256 << 20

// Files loads both sides of every changed path for the approval console:
// HEAD's blob and the worktree file (what `git add -A` would stage),
// together with the plan's blob ids for both. The console hashes the bytes
// it is given and refuses the approval unless they are the plan's blobs, so
// a file changed after the plan was built cannot be shown in its place.
// Where git converts the file when staging it (attributes), the id git
// gives these very bytes at this path is asked of git and passed along.
func Files(ctx context.Context, git *gitx.Runner, p *Plan) ([]approval.File, error) {
	out := make([]approval.File, 0, len(p.Obs.Changes))
	for _, c := range p.Obs.Changes {
		f := approval.File{Path: string(c.Path), OldBlob: c.OldBlob, NewBlob: c.NewBlob}
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
			if c.NewMode != "120000" && c.NewBlob != "" && blobID(c.NewBlob, newB) != c.NewBlob {
				id, err := git.RunInput(ctx, p.Obs.Root, newB, "hash-object", "--stdin", "--path="+string(c.Path))
				if err != nil {
					return nil, err
				}
				f.NewStagedBlob = string(bytes.TrimSpace(id))
			}
		}
		// Binary is decided by content, as git does: a NUL byte. Size and
		// encoding decide nothing; invalid UTF-8 is shown escaped.
		f.Binary = bytes.IndexByte(oldB, 0) >= 0 || bytes.IndexByte(newB, 0) >= 0
		f.Old, f.New = string(oldB), string(newB)
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
	if st.Size() > maxLoadedFile {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d the approval console shows; it cannot be approved here", strconv.QuoteToASCII(path), st.Size(), maxLoadedFile)
	}
	return os.ReadFile(path)
}

// blobID is git's object id of content, in the object format of like.
func blobID(like string, content []byte) string {
	var h hash.Hash = sha1.New()
	if len(like) == 64 {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// Blobs is the new-side blob id of every changed path of p ("" for a
// deletion): what the approval console compares with the files it showed
// to name those that changed when a re-check drifts.
func Blobs(p *Plan) map[string]string {
	out := make(map[string]string, len(p.Obs.Changes))
	for _, c := range p.Obs.Changes {
		out[string(c.Path)] = c.NewBlob
	}
	return out
}
