package ghclient

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/cli/go-gh/v2/pkg/auth"
)

// Repo names a repository as owner/name, in GitHub's spelling.
type Repo struct {
	Owner string
	Name  string
}

var (
	ownerRE = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	nameRE  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
)

// ParseRepo accepts "owner/name" and nothing else.
func ParseRepo(s string) (Repo, error) {
	owner, name, ok := strings.Cut(s, "/")
	if !ok {
		return Repo{}, fmt.Errorf("repository %q is not owner/name", s)
	}
	r := Repo{Owner: owner, Name: name}
	return r, r.validate()
}

func (r Repo) validate() error {
	if !ownerRE.MatchString(r.Owner) {
		return fmt.Errorf("repository owner %q is not a GitHub login", r.Owner)
	}
	if !nameRE.MatchString(r.Name) || r.Name == "." || r.Name == ".." || strings.HasSuffix(r.Name, ".git") {
		return fmt.Errorf("repository name %q is not a GitHub repository name", r.Name)
	}
	return nil
}

// String is owner/name as given.
func (r Repo) String() string { return r.Owner + "/" + r.Name }

// Lower is the lowercase owner/name the state documents use.
func (r Repo) Lower() string { return strings.ToLower(r.String()) }

// path builds a REST path below repos/owner/name from literal segments; each
// segment is escaped on its own so that "/" inside a branch name stays a
// separator, as GitHub's ref endpoints expect.
func (r Repo) path(segments ...string) string {
	parts := []string{"repos", url.PathEscape(r.Owner), url.PathEscape(r.Name)}
	for _, s := range segments {
		for _, p := range strings.Split(s, "/") {
			parts = append(parts, url.PathEscape(p))
		}
	}
	return strings.Join(parts, "/")
}

// PRRef is a pull request named by a web URL.
type PRRef struct {
	Host   string // as written in the URL, lowercased
	Repo   Repo
	Number int64
}

// ParsePRURL accepts https://HOST/OWNER/NAME/pull/N with an optional
// trailing tab (/files, /commits, ...), query or fragment.
func ParsePRURL(raw string) (PRRef, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return PRRef{}, fmt.Errorf("pull request URL: %w", err)
	}
	if u.Scheme != "https" || u.Host == "" || u.User != nil {
		return PRRef{}, fmt.Errorf("pull request URL %q is not https://HOST/OWNER/REPO/pull/NUMBER", raw)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 4 || parts[2] != "pull" {
		return PRRef{}, fmt.Errorf("pull request URL %q is not https://HOST/OWNER/REPO/pull/NUMBER", raw)
	}
	n, err := parseNumber(parts[3])
	if err != nil {
		return PRRef{}, fmt.Errorf("pull request URL %q: %w", raw, err)
	}
	r := Repo{Owner: parts[0], Name: parts[1]}
	if err := r.validate(); err != nil {
		return PRRef{}, err
	}
	return PRRef{Host: strings.ToLower(u.Host), Repo: r, Number: n}, nil
}

// parseNumber accepts a positive decimal with no sign or leading zero.
func parseNumber(s string) (int64, error) {
	if s == "" || s[0] == '0' || strings.ContainsAny(s, "+-") {
		return 0, fmt.Errorf("%q is not a positive pull request number", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive pull request number", s)
	}
	return n, nil
}

// sameHost compares hosts the way gh does (github.com subdomains, case).
func sameHost(a, b string) bool {
	return auth.NormalizeHostname(a) == auth.NormalizeHostname(b)
}

// restPathPrefix is the path of the REST base URL go-gh uses for host; next
// links are requested relative to it.
func restPathPrefix(host string) string {
	if strings.EqualFold(host, "garage.github.com") || auth.IsEnterprise(host) {
		return "/api/v3/"
	}
	return "/"
}
