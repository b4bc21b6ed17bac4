package bootstrap

import (
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/validate"
)

// PRURL is a parsed canonical pull request URL.
type PRURL struct {
	Repository string // as written; compare without case
	Number     int64
}

// ParsePRURL accepts only https://github.com/<owner>/<repo>/pull/<n> with a
// valid owner and repository name (any case) and a positive decimal number
// without leading zeros; for anything else it returns why, and "" on success.
func ParsePRURL(u string) (PRURL, string) {
	rest, found := strings.CutPrefix(u, "https://"+policy.Host+"/")
	if !found {
		return PRURL{}, "must start with https://" + policy.Host + "/"
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 4 || parts[2] != "pull" {
		return PRURL{}, "must be https://" + policy.Host + "/<owner>/<repo>/pull/<number>"
	}
	repo := parts[0] + "/" + parts[1]
	if why := validate.RepositoryProblem(strings.ToLower(repo)); why != "" {
		return PRURL{}, "repository " + why
	}
	n, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != parts[3] {
		return PRURL{}, "the pull request number must be a positive decimal integer"
	}
	return PRURL{Repository: repo, Number: n}, ""
}
