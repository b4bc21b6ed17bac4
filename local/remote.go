package local

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// remote is the validated remote of the plan.
type remote struct {
	Name         string
	FetchURL     string
	TransportURL string // the push URL: remote.<name>.pushurl, else .url
	Repository   string // lowercase owner/repo
}

// selectRemote validates the named remote, or the one the current branch
// tracks. Exactly one url and at most one pushurl are allowed (git would
// push to every pushurl), each must be an https URL of an allowed host, and
// both must name the same repository.
func selectRemote(c *config, name, branch, host string) (*remote, error) {
	if name == "" {
		if branch == "" {
			return nil, refuse(CodeUnknownRemote, "HEAD is detached and no remote was given; %s", passRemote(c))
		}
		v, _, found := c.get("branch." + branch + ".remote")
		if !found || v == "" || v == "." {
			return nil, refuse(CodeUnknownRemote, "branch %s tracks no remote; %s", branch, passRemote(c))
		}
		name = v
	}
	urls := c.all("remote." + name + ".url")
	if len(urls) == 0 {
		return nil, refuse(CodeUnknownRemote, "no remote named %q in this repository", name)
	}
	if len(urls) > 1 {
		return nil, refuse(CodeAmbiguousRemote, "remote %q has %d URLs; exactly one is allowed", name, len(urls))
	}
	pushURLs := c.all("remote." + name + ".pushurl")
	if len(pushURLs) > 1 {
		return nil, refuse(CodeAmbiguousRemote, "remote %q has %d push URLs; git would push to all of them", name, len(pushURLs))
	}
	fetch := string(urls[0].Value)
	fetchRepo, err := repoFromURL(fetch, host)
	if err != nil {
		return nil, refuse(CodeRemoteURL, "remote %q URL %q: %v", name, fetch, err)
	}
	transport := fetch
	if len(pushURLs) == 1 {
		transport = string(pushURLs[0].Value)
		pushRepo, err := repoFromURL(transport, host)
		if err != nil {
			return nil, refuse(CodeRemoteURL, "remote %q push URL %q: %v", name, transport, err)
		}
		if pushRepo != fetchRepo {
			return nil, refuse(CodeAmbiguousRemote, "remote %q fetches from %s but pushes to %s", name, fetchRepo, pushRepo)
		}
	}
	return &remote{Name: name, FetchURL: fetch, TransportURL: transport, Repository: fetchRepo}, nil
}

// passRemote names the fix: the --remote to pass, spelled out when the
// checkout has exactly one remote.
func passRemote(c *config) string {
	var names []string
	for _, e := range c.entries {
		if section, sub, name := splitKey(e.Key); section == "remote" && name == "url" && !slices.Contains(names, sub) {
			names = append(names, sub)
		}
	}
	switch len(names) {
	case 0:
		return "add a GitHub remote (git remote add origin https://github.com/OWNER/REPO) and pass --remote origin"
	case 1:
		return "pass --remote " + names[0]
	}
	return "pass --remote with one of " + strings.Join(names, ", ")
}

var (
	ownerRE = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	repoRE  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
)

// repoFromURL accepts exactly https://HOST/OWNER/REPO or .../REPO.git and
// returns "owner/repo" lowercased. Matching the raw string (not a parsed
// URL) leaves no room for userinfo, ports, queries, escapes or dot segments.
func repoFromURL(raw, host string) (string, error) {
	prefix := "https://" + host + "/"
	if !strings.HasPrefix(raw, prefix) {
		return "", fmt.Errorf("must be https://%s/OWNER/REPO", host)
	}
	owner, repo, ok := strings.Cut(raw[len(prefix):], "/")
	if !ok || strings.Contains(repo, "/") {
		return "", fmt.Errorf("must be https://%s/OWNER/REPO", host)
	}
	repo = strings.TrimSuffix(repo, ".git")
	if !ownerRE.MatchString(owner) || !repoRE.MatchString(repo) || repo == "." || repo == ".." {
		return "", fmt.Errorf("invalid owner or repository name")
	}
	return strings.ToLower(owner) + "/" + strings.ToLower(repo), nil
}

// remoteRefs is the normalized `git ls-remote --symref` of the remote.
type remoteRefs struct {
	refs    []refEntry
	symrefs []symref
}

type refEntry struct{ name, oid string }
type symref struct{ name, target string }

var oidRE = regexp.MustCompile(`^(?:[0-9a-f]{40}|[0-9a-f]{64})$`)

func lsRemote(ctx context.Context, r *gitx.Runner, dir, url string) (*remoteRefs, error) {
	out, err := r.Run(ctx, dir, "ls-remote", "--symref", url)
	if err != nil {
		return nil, err
	}
	return parseLsRemote(out)
}

func parseLsRemote(out []byte) (*remoteRefs, error) {
	rr := &remoteRefs{}
	for line := range bytes.Lines(out) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		left, name, ok := bytes.Cut(line, []byte("\t"))
		if !ok || len(name) == 0 {
			return nil, fmt.Errorf("local: malformed ls-remote line %q", line)
		}
		if target, isSym := bytes.CutPrefix(left, []byte("ref: ")); isSym {
			rr.symrefs = append(rr.symrefs, symref{string(name), string(target)})
			continue
		}
		if !oidRE.Match(left) {
			return nil, fmt.Errorf("local: malformed ls-remote object id %q", left)
		}
		rr.refs = append(rr.refs, refEntry{string(name), string(left)})
	}
	slices.SortFunc(rr.refs, func(a, b refEntry) int { return strings.Compare(a.name, b.name) })
	slices.SortFunc(rr.symrefs, func(a, b symref) int { return strings.Compare(a.name, b.name) })
	return rr, nil
}

func (rr *remoteRefs) value() any {
	refs := make([]any, 0, len(rr.refs))
	for _, e := range rr.refs {
		refs = append(refs, map[string]any{"name": gitx.BytesValue([]byte(e.name)), "oid": e.oid})
	}
	syms := make([]any, 0, len(rr.symrefs))
	for _, s := range rr.symrefs {
		syms = append(syms, map[string]any{"name": gitx.BytesValue([]byte(s.name)), "target": gitx.BytesValue([]byte(s.target))})
	}
	return map[string]any{"refs": refs, "symrefs": syms}
}

// base resolves the base branch (the remote's default when empty) and its tip.
func (rr *remoteRefs) base(branch string) (string, string, error) {
	if branch == "" {
		for _, s := range rr.symrefs {
			if s.name == "HEAD" {
				branch, _ = strings.CutPrefix(s.target, "refs/heads/")
			}
		}
		if branch == "" {
			return "", "", refuse(CodeBaseBranch, "the remote has no default branch; pass the base branch")
		}
	}
	for _, e := range rr.refs {
		if e.name == "refs/heads/"+branch {
			return branch, e.oid, nil
		}
	}
	return "", "", refuse(CodeBaseBranch, "base branch %q does not exist on the remote", branch)
}
