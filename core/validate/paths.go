package validate

import (
	"strings"

	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// PathProblem says why p is not a canonical repository-relative path, or ""
// when it is. Canonical: non-empty, "/"-separated, no leading or trailing
// "/", no empty, "." or ".." segment, no backslash, no control character
// (NUL included), and no ".git" segment in any letter case. The text is
// taken as git reports it; see the package comment for why there is no
// Unicode normalization.
func PathProblem(p string) string {
	if p == "" {
		return "must not be empty"
	}
	if strings.HasPrefix(p, "/") {
		return "must be repository-relative, not start with /"
	}
	if strings.HasSuffix(p, "/") {
		return "must not end with /"
	}
	if strings.Contains(p, `\`) {
		return `must not contain a backslash`
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "must not contain a control character"
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch {
		case seg == "":
			return "must not contain an empty segment (//)"
		case seg == "." || seg == "..":
			return "must not contain a . or .. segment"
		case strings.EqualFold(seg, ".git"):
			return "must not reach into git metadata (.git segment)"
		}
	}
	return ""
}

// CheckPathSet enforces the seed's path rules shared by the initial snapshot
// and the remediation manifest: paths are canonical, sorted and unique;
// path_records are sorted by path, unique, match paths one-for-one, and have
// both containment booleans true. Each rule reports on its own, so a
// misordered record list is "not-sorted", never also a mismatch.
func CheckPathSet(paths []string, records []schema.PathRecord, pathsPath, recordsPath string, errs *problems.List) {
	inPaths := make(map[string]bool, len(paths))
	for i, p := range paths {
		at := problems.Join(pathsPath, i)
		if why := PathProblem(p); why != "" {
			errs.Add(at, problems.InvalidValue, "path %q %s", p, why)
		}
		if inPaths[p] {
			errs.Add(at, problems.Duplicate, "path %q is listed twice", p)
		} else if i > 0 && paths[i-1] > p {
			errs.Add(at, problems.NotSorted, "path %q sorts before %q", p, paths[i-1])
		}
		inPaths[p] = true
	}
	inRecords := make(map[string]bool, len(records))
	for i, r := range records {
		at := problems.Join(recordsPath, i)
		if !r.InsideWorktree {
			errs.Add(problems.Join(at, "inside_worktree"), problems.InvalidValue, "path %q must be inside the worktree", r.Path)
		}
		if !r.OutsideGitMetadata {
			errs.Add(problems.Join(at, "outside_git_metadata"), problems.InvalidValue, "path %q must be outside git metadata", r.Path)
		}
		switch {
		case inRecords[r.Path]:
			errs.Add(problems.Join(at, "path"), problems.Duplicate, "path %q has two records", r.Path)
		case i > 0 && records[i-1].Path > r.Path:
			errs.Add(problems.Join(at, "path"), problems.NotSorted, "record for %q sorts before %q", r.Path, records[i-1].Path)
		}
		if !inPaths[r.Path] {
			errs.Add(problems.Join(at, "path"), problems.Mismatch, "record for %q, which is not in paths", r.Path)
		}
		inRecords[r.Path] = true
	}
	for i, p := range paths {
		if !inRecords[p] {
			errs.Add(problems.Join(pathsPath, i), problems.Mismatch, "path %q has no path record", p)
		}
	}
}
