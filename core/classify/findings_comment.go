package classify

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
)

// reBlobLink is a link to lines of a file at a commit, as the bot opens each
// finding of a findings issue comment with:
// https://github.com/<owner>/<repo>/blob/<sha>/<path>#L<a>-L<b>
var reBlobLink = regexp.MustCompile(`^https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/blob/([0-9a-fA-F]{7,40})/([^\s#?]+)#L[0-9]+(?:-L[0-9]+)?$`)

// FindingsComment is what a trusted issue comment carrying findings says.
type FindingsComment struct {
	Commit string   // the one commit every finding links at (lowercase, as linked)
	Paths  []string // repository-relative paths of the findings, sorted, unique
}

// readFindingsComment recognizes the bot's findings issue comment: the
// findings heading opens the body, and at least one finding is a blob link
// line followed (after blank lines) by a line carrying a priority badge.
// Every finding must link into repository at one and the same commit, and
// with a "Reviewed commit" line that line must agree; anything else is not
// this shape and is left to the ambiguous branch rather than guessed at.
func readFindingsComment(body, repository string) (FindingsComment, bool) {
	if !strings.HasPrefix(trimLead(body), findingsHeading) {
		return FindingsComment{}, false
	}
	lines := strings.Split(body, "\n")
	var fc FindingsComment
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		m := reBlobLink.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j == len(lines) || !reBadge.MatchString(lines[j]) {
			continue // a link in prose, not a finding
		}
		if !strings.EqualFold(m[1], repository) {
			return FindingsComment{}, false
		}
		commit := strings.ToLower(m[2])
		if fc.Commit != "" && fc.Commit != commit {
			return FindingsComment{}, false
		}
		fc.Commit = commit
		p, ok := linkPath(m[3])
		if !ok {
			return FindingsComment{}, false
		}
		if !seen[p] {
			seen[p] = true
			fc.Paths = append(fc.Paths, p)
		}
	}
	if fc.Commit == "" {
		return FindingsComment{}, false
	}
	if named, ok := reviewedCommit(body); ok && !strings.HasPrefix(fc.Commit, named) && !strings.HasPrefix(named, fc.Commit) {
		return FindingsComment{}, false
	}
	sort.Strings(fc.Paths)
	return fc, true
}

// linkPath decodes a URL path into a clean repository-relative path; one
// that escapes the repository or is not already clean is refused.
func linkPath(escaped string) (string, bool) {
	p, err := url.PathUnescape(escaped)
	if err != nil || p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// FindingPaths returns the repository-relative paths the qualifying findings
// issue comments of an observation name at the request head, sorted and
// unique: with no review thread to point at, their links are what tells a
// remediation round which files to fix. Nothing qualifies without a request.
func FindingPaths(obs *observe.PR, r *Request) []string {
	out := []string{}
	if obs == nil {
		return out
	}
	req := newRequestClock(r)
	seen := map[string]bool{}
	for _, c := range obs.IssueComments {
		if !Trusted(c.Author) || c.ID <= 0 || !req.after(c.CreatedAt) {
			continue
		}
		fc, ok := readFindingsComment(c.Body, obs.Repository)
		if !ok || !prefixOf(fc.Commit, req.head) {
			continue
		}
		for _, p := range fc.Paths {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}
