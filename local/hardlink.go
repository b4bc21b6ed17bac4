package local

import (
	"io/fs"
	"os"
	"path/filepath"
)

// checkHardLinks refuses a path whose file is the same file (same device
// and inode) as a file in git metadata: a hard link to .git/config inside
// the worktree looks like an ordinary new file, but committing it publishes
// the repository's configuration and editing it rewrites that
// configuration. Path resolution (pathRecord) already refuses symlinks and
// names that reach git metadata; a hard link has no name to see, only its
// identity. Git metadata is searched only when some path's file has more
// than one link, so the usual observation walks nothing.
func (w Worktree) checkHardLinks(paths []string) error {
	type linked struct {
		path string
		fi   fs.FileInfo
	}
	var cands []linked
	for _, p := range paths {
		fi, err := os.Stat(filepath.Join(w.Root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			continue // a deletion, or not a file: nothing to share
		}
		if linkCount(fi) > 1 {
			cands = append(cands, linked{p, fi})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	for _, dir := range w.metadataRoots() {
		var found error
		err := filepath.WalkDir(dir, func(meta string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable corner of .git holds nothing we could link to
			}
			if !d.Type().IsRegular() {
				return nil
			}
			mfi, err := d.Info()
			if err != nil || linkCount(mfi) < 2 {
				return nil
			}
			for _, c := range cands {
				if os.SameFile(c.fi, mfi) {
					found = refuse(CodeGitMetadataPath, "path %s is the same file as %s in git metadata (a hard link); committing or editing it would publish or change the repository's own files",
						quote([]byte(c.path)), quote([]byte(meta)))
					return filepath.SkipAll
				}
			}
			return nil
		})
		if found != nil {
			return found
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// metadataRoots are the git directories to search: this worktree's and
// the common one, once each.
func (w Worktree) metadataRoots() []string {
	roots := []string{}
	for _, d := range []string{w.GitDir, w.CommonDir} {
		if d == "" {
			continue
		}
		dup := false
		for _, r := range roots {
			if within(d, r) {
				dup = true
			}
		}
		if !dup {
			roots = append(roots, d)
		}
	}
	return roots
}
