package local

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/prloop/gh-prloop/gitx"
)

// Change is one path of the pending change: what HEAD has and what
// `git add -A` of the worktree would stage. An empty mode and blob mean the
// path is absent on that side.
type Change struct {
	Path    []byte
	OldMode string
	OldBlob string
	NewMode string
	NewBlob string
}

const noMode = "000000"

// worktreeFacts are the config values that decide how git would stage a new
// file.
type worktreeFacts struct {
	fileMode     bool // core.fileMode: trust the executable bit
	symlinks     bool // core.symlinks
	objectFormat string
}

func factsFrom(c *config) worktreeFacts {
	f := worktreeFacts{fileMode: true, symlinks: true, objectFormat: "sha1"}
	if v, ok := c.boolean("core.filemode"); ok {
		f.fileMode = v
	}
	if v, ok := c.boolean("core.symlinks"); ok {
		f.symlinks = v
	}
	if v, _, found := c.get("extensions.objectformat"); found && v != "" {
		f.objectFormat = v
	}
	return f
}

// pendingChanges derives the change set from status records. Worktree sides
// that git did not hash are marked for hashing (NewBlob == "" with NewMode
// set) and filled by hashWorktree.
func pendingChanges(entries []gitx.StatusEntry, root string, facts worktreeFacts) ([]*Change, error) {
	byPath := map[string]*Change{}
	var order []*Change
	get := func(p []byte) *Change {
		if c, ok := byPath[string(p)]; ok {
			return c
		}
		c := &Change{Path: p}
		byPath[string(p)] = c
		order = append(order, c)
		return c
	}
	for _, e := range entries {
		switch e.Kind {
		case '1':
			f := e.Fields // XY sub mH mI mW hH hI
			xy, sub, mH, mI, mW, hH, hI := f[0], f[1], f[2], f[3], f[4], f[5], f[6]
			if len(xy) != 2 || len(sub) != 4 {
				return nil, fmt.Errorf("local: malformed status fields %q", f)
			}
			if sub[0] == 'S' || mH == "160000" || mI == "160000" || mW == "160000" {
				return nil, refuse(CodeSubmodule, "submodule %s changed; a plan never includes submodule changes", quote(e.Path))
			}
			c := get(e.Path)
			if mH != noMode {
				c.OldMode, c.OldBlob = mH, hH
			}
			switch y := xy[1]; {
			case y == '.':
				if mI != noMode {
					c.NewMode, c.NewBlob = mI, hI
				}
			case y == 'D' || mW == noMode:
				c.NewMode, c.NewBlob = "", ""
			default:
				c.NewMode, c.NewBlob = mW, ""
			}
		case '2':
			return nil, fmt.Errorf("local: status reported a rename although renames are off")
		case 'u':
			return nil, refuse(CodeUnmerged, "%s is unmerged; resolve the conflict first", quote(e.Path))
		}
	}
	// Untracked files come after tracked records in git's output, but a path
	// can be both (removed from the index, still on disk): the worktree wins.
	for _, e := range entries {
		if e.Kind != '?' {
			continue
		}
		if bytes.HasSuffix(e.Path, []byte("/")) {
			return nil, refuse(CodeNestedRepository, "untracked directory %s is a nested git repository", quote(e.Path))
		}
		fi, err := os.Lstat(filepath.Join(root, string(e.Path)))
		if err != nil {
			return nil, refuse(CodeChanged, "untracked %s vanished during observation: %v", quote(e.Path), err)
		}
		c := get(e.Path)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0 && facts.symlinks:
			c.NewMode = "120000"
		case fi.Mode()&fs.ModeSymlink != 0, fi.Mode().IsRegular():
			c.NewMode = "100644"
			if facts.fileMode && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				c.NewMode = "100755"
			}
		default:
			return nil, refuse(CodeUnsupportedFile, "%s is a %s, which git cannot stage", quote(e.Path), fi.Mode().Type())
		}
		c.NewBlob = ""
	}
	return order, nil
}

// hashWorktree fills every pending blob id. Regular files go through one
// `git hash-object --stdin-paths`, which applies the same attribute-driven
// conversions as `git add` (paths are C-quoted, so any name round-trips);
// symlinks are hashed here from their target, which hash-object would
// follow instead.
func hashWorktree(ctx context.Context, r *gitx.Runner, root string, changes []*Change, facts worktreeFacts) error {
	var files []*Change
	var stdin bytes.Buffer
	for _, c := range changes {
		if c.NewMode == "" || c.NewBlob != "" {
			continue
		}
		full := filepath.Join(root, string(c.Path))
		fi, err := os.Lstat(full)
		if err != nil {
			return refuse(CodeChanged, "%s changed during observation: %v", quote(c.Path), err)
		}
		isLink := fi.Mode()&fs.ModeSymlink != 0
		switch {
		case isLink && (c.NewMode == "120000" || !facts.symlinks):
			target, err := os.Readlink(full)
			if err != nil {
				return refuse(CodeChanged, "%s changed during observation: %v", quote(c.Path), err)
			}
			c.NewBlob = blobID(facts.objectFormat, []byte(target))
		case fi.Mode().IsRegular() && c.NewMode != "120000":
			files = append(files, c)
			stdin.WriteString(gitx.CQuote(c.Path))
			stdin.WriteByte('\n')
		default:
			return refuse(CodeChanged, "%s changed type during observation", quote(c.Path))
		}
	}
	if len(files) == 0 {
		return nil
	}
	out, err := r.RunInput(ctx, root, stdin.Bytes(), "hash-object", "--stdin-paths")
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	i := 0
	for sc.Scan() {
		if i >= len(files) || !oidRE.Match(sc.Bytes()) {
			return fmt.Errorf("local: unexpected hash-object output %q", sc.Bytes())
		}
		files[i].NewBlob = sc.Text()
		i++
	}
	if i != len(files) {
		return fmt.Errorf("local: hash-object returned %d ids for %d files", i, len(files))
	}
	return nil
}

// settle drops entries whose two sides are equal (a file edited back to its
// HEAD content) and sorts by path bytes.
func settle(pending []*Change) []Change {
	out := make([]Change, 0, len(pending))
	for _, c := range pending {
		if c.OldMode == c.NewMode && c.OldBlob == c.NewBlob {
			continue
		}
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Change) int { return bytes.Compare(a.Path, b.Path) })
	return out
}

// diffValue is the normalized pending-change observation whose hash is
// diff_sha256.
func diffValue(head string, changes []Change) any {
	list := make([]any, 0, len(changes))
	for _, c := range changes {
		list = append(list, map[string]any{
			"path":     gitx.BytesValue(c.Path),
			"old_mode": nullable(c.OldMode),
			"old_blob": nullable(c.OldBlob),
			"new_mode": nullable(c.NewMode),
			"new_blob": nullable(c.NewBlob),
		})
	}
	return map[string]any{"from": head, "changes": list}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// blobID is git's object id of a blob with this content.
func blobID(format string, content []byte) string {
	var h hash.Hash = sha1.New()
	if format == "sha256" {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// quote shows a path to a human unambiguously, whatever its bytes.
func quote(p []byte) string { return strconv.QuoteToASCII(string(p)) }
