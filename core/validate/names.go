package validate

import (
	"regexp"
	"strings"

	"github.com/prloop/gh-prloop/core/problems"
)

var (
	reOwner = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,38}$`)
	reRepo  = regexp.MustCompile(`^[a-z0-9._-]{1,100}$`)
)

// RepositoryProblem says why repo is not a lowercase GitHub "owner/repo", or
// "" when it is. Lowercase because GitHub names are case-insensitive and the
// automation key must have one spelling per repository.
func RepositoryProblem(repo string) string {
	owner, name, ok := strings.Cut(repo, "/")
	switch {
	case !ok:
		return "must be owner/repo"
	case repo != strings.ToLower(repo):
		return "must be lowercase"
	case !reOwner.MatchString(owner):
		return "has an invalid owner"
	case !reRepo.MatchString(name) || name == "." || name == "..":
		return "has an invalid repository name"
	}
	return ""
}

// CheckRepository records RepositoryProblem.
func CheckRepository(repo, path string, errs *problems.List) {
	if why := RepositoryProblem(repo); why != "" {
		errs.Add(path, problems.InvalidValue, "repository %q %s", repo, why)
	}
}

// RefNameProblem says why name cannot be a branch (or remote) name under
// git check-ref-format --branch, or "" when it can. The product passes these
// names to git, so a name git would read differently must never be approved.
func RefNameProblem(name string) string {
	switch {
	case name == "":
		return "must not be empty"
	case name == "@":
		return `must not be "@"`
	case strings.HasPrefix(name, "-"):
		return "must not start with -"
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/"):
		return "must not start or end with /"
	case strings.HasSuffix(name, "."):
		return "must not end with ."
	case strings.Contains(name, ".."), strings.Contains(name, "//"), strings.Contains(name, "@{"):
		return `must not contain "..", "//" or "@{"`
	case strings.ContainsAny(name, " ~^:?*[\\"):
		return `must not contain space, ~, ^, :, ?, *, [ or \`
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "must not contain a control character"
		}
	}
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") || strings.HasSuffix(seg, ".lock") {
			return `no component may start with "." or end with ".lock"`
		}
	}
	return ""
}

// CheckRefName records RefNameProblem for a branch or remote name.
func CheckRefName(name, path string, errs *problems.List) {
	if why := RefNameProblem(name); why != "" {
		errs.Add(path, problems.InvalidValue, "%q %s", name, why)
	}
}
