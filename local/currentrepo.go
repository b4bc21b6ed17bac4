package local

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cli/go-gh/v2/pkg/repository"

	"github.com/prloop/gh-prloop/gitx"
)

// GitHubRepo is a repository on a GitHub host.
type GitHubRepo struct{ Host, Owner, Name string }

// CurrentRepository finds the GitHub repository the checkout containing dir
// tracks, by gh's rules (go-gh repository.Current): remotes are ranked
// upstream, github, origin, then the rest; only those whose URL is on one of
// hosts count; a gh-resolved setting on the first of them that has one
// (`gh repo set-default`) wins. Unlike go-gh, which runs `git remote -v`
// and `git config` with the user's whole environment and configuration
// (and asks ssh to translate host aliases), it reads only the repository's
// own configuration through the sanitized runner, like every other git
// command of the product. So URL rewrites and host aliases from the global
// configuration do not apply; --repo names a repository explicitly.
func CurrentRepository(ctx context.Context, r *gitx.Runner, dir string, hosts []string) (GitHubRepo, error) {
	c, err := readConfig(ctx, r, dir)
	if err != nil {
		return GitHubRepo{}, err
	}
	type remoteRepo struct {
		name, resolved string
		repo           GitHubRepo
		ok             bool
		// The first url names the repository, else the first pushurl
		// (go-gh's resolveIdentity over `git remote -v`).
		urlSeen, pushSeen bool
		push              GitHubRepo
		pushOK            bool
	}
	var remotes []*remoteRepo
	byName := map[string]*remoteRepo{}
	get := func(name string) *remoteRepo {
		if rr := byName[name]; rr != nil {
			return rr
		}
		rr := &remoteRepo{name: name}
		byName[name] = rr
		remotes = append(remotes, rr)
		return rr
	}
	parse := func(v string) (GitHubRepo, bool) {
		u, isURL := remoteURL(v)
		if !isURL {
			return GitHubRepo{}, false
		}
		repo, err := repository.Parse(u)
		if err != nil {
			return GitHubRepo{}, false
		}
		return GitHubRepo{Host: repo.Host, Owner: repo.Owner, Name: repo.Name}, true
	}
	for _, e := range c.entries {
		section, name, key := splitKey(e.Key)
		if section != "remote" || name == "" {
			continue
		}
		switch key {
		case "url":
			if rr := get(name); !rr.urlSeen {
				rr.urlSeen = true
				rr.repo, rr.ok = parse(string(e.Value))
			}
		case "pushurl":
			if rr := get(name); !rr.pushSeen {
				rr.pushSeen = true
				rr.push, rr.pushOK = parse(string(e.Value))
			}
		case "gh-resolved":
			get(name).resolved = string(e.Value)
		}
	}
	for _, rr := range remotes {
		if !rr.ok && rr.pushOK {
			rr.repo, rr.ok = rr.push, true
		}
	}
	if len(remotes) == 0 {
		return GitHubRepo{}, errors.New("no git remotes are configured for this repository")
	}
	slices.SortStableFunc(remotes, func(a, b *remoteRepo) int { return remoteScore(b.name) - remoteScore(a.name) })
	var known []*remoteRepo
	for _, rr := range remotes {
		if rr.ok && slices.ContainsFunc(hosts, func(h string) bool { return strings.EqualFold(h, rr.repo.Host) }) {
			known = append(known, rr)
		}
	}
	if len(known) == 0 {
		return GitHubRepo{}, errors.New("none of the git remotes configured for this repository point to a known GitHub host")
	}
	pick := known[0]
	for _, rr := range known {
		if rr.resolved == "" {
			continue
		}
		if rr.resolved != "base" {
			repo, err := repository.ParseWithHost(rr.resolved, rr.repo.Host)
			if err != nil {
				return GitHubRepo{}, fmt.Errorf("remote.%s.gh-resolved: %w", rr.name, err)
			}
			return GitHubRepo{Host: rr.repo.Host, Owner: repo.Owner, Name: repo.Name}, nil
		}
		pick = rr
		break
	}
	return pick.repo, nil
}

// remoteScore ranks remote names as gh does.
func remoteScore(name string) int {
	switch strings.ToLower(name) {
	case "upstream":
		return 3
	case "github":
		return 2
	case "origin":
		return 1
	}
	return 0
}

// remoteURL gives a remote URL the form repository.Parse reads as a URL, as
// go-gh's ParseURL does: scp-like "host:owner/repo" becomes ssh://. Local
// paths and other non-URLs name no GitHub repository.
func remoteURL(v string) (string, bool) {
	for _, p := range []string{"ssh:", "git+ssh:", "git:", "http:", "git+https:", "https:"} {
		if strings.HasPrefix(v, p) {
			return v, true
		}
	}
	colon, slash := strings.IndexByte(v, ':'), strings.IndexByte(v, '/')
	if colon > 0 && !strings.Contains(v, "://") && !strings.ContainsRune(v, '\\') && (slash < 0 || colon < slash) {
		return "ssh://" + strings.Replace(v, ":", "/", 1), true
	}
	return "", false
}
