package local

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/gitx"
)

// maxSymlinks bounds resolution like the kernel's ELOOP limit.
const maxSymlinks = 40

// PathRecords builds the record of each path (sorted by path): the hash of
// every lstat done while resolving it from the worktree root, and of the
// location it resolves to. A path that is malformed, names git metadata, or
// resolves (through any symlink, the last component included) outside the
// worktree or into git metadata, or whose file is a hard link to a file in
// git metadata (checkHardLinks), is refused; so both containment booleans of
// a returned record are true. Records are recomputed before each edit and
// staging operation and must then be identical.
func (w Worktree) PathRecords(paths []string) ([]schema.PathRecord, error) {
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	records := make([]schema.PathRecord, 0, len(sorted))
	for i, p := range sorted {
		if i > 0 && sorted[i-1] == p {
			return nil, refuse(CodeInvalidPath, "path %q is listed twice", p)
		}
		rec, err := w.pathRecord(p)
		if err != nil {
			return nil, err
		}
		records = append(records, rec)
	}
	if err := w.checkHardLinks(sorted); err != nil {
		return nil, err
	}
	return records, nil
}

func (w Worktree) pathRecord(p string) (schema.PathRecord, error) {
	if err := checkRelPath(p); err != nil {
		return schema.PathRecord{}, err
	}
	rootType, err := lstatType(w.Root)
	if err != nil {
		return schema.PathRecord{}, err
	}
	steps := []any{map[string]any{"path": "", "type": rootType, "target": nil}}
	queue := strings.Split(p, "/")
	var cur []string
	finalType := rootType
	links := 0
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return schema.PathRecord{}, refuse(CodeSymlinkEscape, "%q resolves above the worktree root", p)
			}
			cur = cur[:len(cur)-1]
			finalType = "directory"
			continue
		}
		if isGitName(c) {
			return schema.PathRecord{}, refuse(CodeGitMetadataPath, "%q resolves into git metadata (%q)", p, c)
		}
		cand := strings.Join(append(slices.Clone(cur), c), "/")
		full := filepath.Join(w.Root, filepath.FromSlash(cand))
		if within(full, w.GitDir) || within(full, w.CommonDir) {
			return schema.PathRecord{}, refuse(CodeGitMetadataPath, "%q resolves into the git directory", p)
		}
		fi, err := os.Lstat(full)
		step := map[string]any{"path": gitx.BytesValue([]byte(cand)), "target": nil}
		steps = append(steps, step)
		if err != nil {
			if !isMissing(err) {
				return schema.PathRecord{}, err
			}
			step["type"] = "missing"
			cur = append(cur, c)
			finalType = "missing"
			continue
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			step["type"] = fileType(fi.Mode())
			cur = append(cur, c)
			finalType = step["type"].(string)
			continue
		}
		target, err := os.Readlink(full)
		if err != nil {
			return schema.PathRecord{}, err
		}
		step["type"] = "symlink"
		step["target"] = gitx.BytesValue([]byte(target))
		if links++; links > maxSymlinks {
			return schema.PathRecord{}, refuse(CodeSymlinkLoop, "%q: too many levels of symbolic links", p)
		}
		if filepath.IsAbs(target) {
			rel, ok := under(w.Root, filepath.Clean(target))
			if !ok {
				return schema.PathRecord{}, refuse(CodeSymlinkEscape, "%q passes through symlink %q -> %q, which leaves the worktree", p, cand, target)
			}
			cur = nil
			queue = append(splitSlash(rel), queue...)
		} else {
			queue = append(splitSlash(filepath.ToSlash(target)), queue...)
		}
		// The link's own directory is where a relative target starts; an
		// empty remaining target resolves to that directory.
		finalType = "directory"
	}
	resolved := strings.Join(cur, "/")
	chain, err := canon.HashValue(map[string]any{"root": gitx.BytesValue([]byte(w.Root)), "steps": steps})
	if err != nil {
		return schema.PathRecord{}, err
	}
	target, err := canon.HashValue(map[string]any{"path": gitx.BytesValue([]byte(resolved)), "type": finalType})
	if err != nil {
		return schema.PathRecord{}, err
	}
	return schema.PathRecord{
		InsideWorktree:       true,
		LstatChainSHA256:     chain,
		OutsideGitMetadata:   true,
		Path:                 p,
		ResolvedTargetSHA256: target,
	}, nil
}

// checkRelPath accepts only paths a manifest can carry: valid UTF-8 and
// canonical by core's own rule (validate.PathProblem: no control characters,
// backslashes, empty/./.. segments or .git segment), plus the HFS/NTFS
// spellings of .git that git's protections treat as .git. Refusing here
// gives the human the reason before a plan exists, instead of core
// rejecting the finished document.
func checkRelPath(p string) error {
	if !utf8.ValidString(p) {
		return refuse(CodeNonUTF8Path, "path %s is not valid UTF-8; manifests carry paths as JSON strings", quote([]byte(p)))
	}
	if why := validate.PathProblem(p); why != "" {
		code := CodeInvalidPath
		for _, c := range strings.Split(p, "/") {
			if isGitName(c) {
				code = CodeGitMetadataPath
			}
		}
		return refuse(code, "path %s %s", quote([]byte(p)), why)
	}
	for _, c := range strings.Split(p, "/") {
		if isGitName(c) {
			return refuse(CodeGitMetadataPath, "path %s is inside git metadata (%q)", quote([]byte(p)), c)
		}
	}
	if why := validate.HiddenProblem(p, ""); why != "" {
		return refuse(CodeHiddenCharacter, "path %s %s, which the approval screen cannot show as written; rename it", quote([]byte(p)), why)
	}
	return nil
}

// isGitName reports whether a path component is ".git" as git's HFS and NTFS
// protections see it: any case, NTFS's ignored trailing dots and spaces, the
// 8.3 short name, and HFS+'s ignorable code points.
func isGitName(c string) bool {
	if strings.EqualFold(c, "git~1") {
		return true
	}
	c = strings.Map(func(r rune) rune {
		switch {
		case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
			return -1
		}
		return r
	}, c)
	c = strings.TrimRight(c, ". ")
	return strings.EqualFold(c, ".git")
}

func lstatType(p string) (string, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	return fileType(fi.Mode()), nil
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

// under returns target relative to root ("" for root itself) when target is
// root or below it.
func under(root, target string) (string, bool) {
	if target == root {
		return "", true
	}
	prefix := strings.TrimSuffix(root, string(filepath.Separator)) + string(filepath.Separator)
	if rest, ok := strings.CutPrefix(target, prefix); ok {
		return filepath.ToSlash(rest), true
	}
	return "", false
}

func within(p, dir string) bool {
	_, ok := under(dir, p)
	return dir != "" && ok
}

func splitSlash(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
