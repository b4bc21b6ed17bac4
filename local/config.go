package local

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// configEntry is one line of `git config --list --show-scope --show-origin -z`.
type configEntry struct {
	Scope    string
	Origin   []byte
	Key      string // section and variable lowercased by git; subsection verbatim
	Value    []byte
	HasValue bool // false for a bare "[section] key" (boolean true)
}

// config is the effective configuration git sees under the runner, in git's
// reading order (system and global are off, so: local, worktree, command).
type config struct {
	entries []configEntry
}

func readConfig(ctx context.Context, r *gitx.Runner, root string) (*config, error) {
	out, err := r.Run(ctx, root, "config", "--list", "--show-scope", "--show-origin", "-z")
	if err != nil {
		return nil, err
	}
	return parseConfigZ(out)
}

func parseConfigZ(out []byte) (*config, error) {
	recs, err := gitx.SplitZ(out)
	if err != nil {
		return nil, err
	}
	if len(recs)%3 != 0 {
		return nil, fmt.Errorf("local: git config -z output has %d records, not a multiple of 3", len(recs))
	}
	c := &config{entries: make([]configEntry, 0, len(recs)/3)}
	for i := 0; i < len(recs); i += 3 {
		e := configEntry{Scope: string(recs[i]), Origin: recs[i+1]}
		kv := recs[i+2]
		if nl := bytes.IndexByte(kv, '\n'); nl >= 0 {
			e.Key, e.Value, e.HasValue = string(kv[:nl]), kv[nl+1:], true
		} else {
			e.Key = string(kv)
		}
		c.entries = append(c.entries, e)
	}
	return c, nil
}

// snapshotValue is the normalized config observation (docs/protocol.md §9).
func (c *config) snapshotValue() any {
	entries := make([]any, 0, len(c.entries))
	for _, e := range c.entries {
		var v any
		if e.HasValue {
			v = gitx.BytesValue(e.Value)
		}
		entries = append(entries, map[string]any{
			"scope":  e.Scope,
			"origin": gitx.BytesValue(e.Origin),
			"key":    gitx.BytesValue([]byte(e.Key)),
			"value":  v,
		})
	}
	return map[string]any{"entries": entries}
}

// get returns the last value of key (git's "last one wins").
func (c *config) get(key string) (value string, hasValue, found bool) {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].Key == key {
			return string(c.entries[i].Value), c.entries[i].HasValue, true
		}
	}
	return "", false, false
}

func (c *config) all(key string) []configEntry {
	var out []configEntry
	for _, e := range c.entries {
		if e.Key == key {
			out = append(out, e)
		}
	}
	return out
}

// boolean reads key with git's boolean rules; ok is false when unset or not
// a boolean.
func (c *config) boolean(key string) (val, ok bool) {
	v, has, found := c.get(key)
	if !found {
		return false, false
	}
	return gitBool(v, has)
}

func gitBool(v string, hasValue bool) (val, ok bool) {
	if !hasValue {
		return true, true
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	return false, false
}

// splitKey splits "section.sub.section.name" into its parts; sub may
// contain dots.
func splitKey(key string) (section, sub, name string) {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first < 0 {
		return key, "", ""
	}
	if first == last {
		return key[:first], "", key[last+1:]
	}
	return key[:first], key[first+1 : last], key[last+1:]
}

// credentialHelpers replays git's credential.helper list semantics (an empty
// value clears the list) over every helper key, URL-specific ones included.
func (c *config) credentialHelpers() []string {
	var helpers []string
	for _, e := range c.entries {
		section, _, name := splitKey(e.Key)
		if section != "credential" || name != "helper" {
			continue
		}
		if !e.HasValue || len(e.Value) == 0 {
			helpers = nil
			continue
		}
		helpers = append(helpers, string(e.Value))
	}
	return helpers
}

// cleanFilterDrivers are the filter drivers with a clean or process command;
// a filter attribute naming any other driver does nothing on add/status.
func (c *config) cleanFilterDrivers() map[string]bool {
	drivers := map[string]bool{}
	for _, e := range c.entries {
		section, sub, name := splitKey(e.Key)
		if section != "filter" || sub == "" || (name != "clean" && name != "process") {
			continue
		}
		v, has, _ := c.get(e.Key)
		drivers[sub] = drivers[sub] || (has && v != "")
	}
	for k, v := range drivers {
		if !v {
			delete(drivers, k)
		}
	}
	return drivers
}

// configuredFilterDrivers are the filter drivers the repository's own
// configuration defines with any command (clean, smudge or process). A
// filter attribute naming another driver is inert for the sanitized runner
// but maybe not for the user's git, which also reads the global and system
// configuration (where git-lfs configures itself).
func (c *config) configuredFilterDrivers() map[string]bool {
	drivers := map[string]bool{}
	for _, e := range c.entries {
		section, sub, name := splitKey(e.Key)
		if section != "filter" || sub == "" || (name != "clean" && name != "smudge" && name != "process") {
			continue
		}
		if v, has, _ := c.get(e.Key); has && v != "" {
			drivers[sub] = true
		}
	}
	return drivers
}

// unsafeReasons lists repository settings that would let git run a program
// or send the transport (and its credentials) somewhere other than the
// validated remote, none of which the fixed invocation can override.
// Command-line entries are the runner's own and are not judged here.
func (c *config) unsafeReasons() []string {
	var reasons []string
	for _, e := range c.entries {
		if e.Scope == "command" {
			continue
		}
		section, _, name := splitKey(e.Key)
		why := ""
		switch {
		case section == "url" && (name == "insteadof" || name == "pushinsteadof"):
			why = "rewrites remote URLs"
		case section == "remote" && name == "vcs":
			why = "runs a remote helper program"
		case (section == "remote" || section == "http") && name == "proxy":
			why = "sends git traffic through a proxy"
		case section == "http" && name == "sslverify":
			if v, ok := gitBool(string(e.Value), e.HasValue); !ok || !v {
				why = "disables TLS certificate verification"
			}
		case section == "http" && (name == "sslcainfo" || name == "sslcapath" || name == "sslbackend" || name == "curloptresolve"):
			why = "changes whom git trusts or connects to"
		case section == "http" && (name == "extraheader" || name == "cookiefile"):
			why = "adds credentials or headers to git requests"
		case section == "core" && name == "alternaterefscommand":
			why = "runs a program during fetch and push"
		}
		if why != "" {
			reasons = append(reasons, fmt.Sprintf("%s (%s, from %s)", e.Key, why, string(e.Origin)))
		}
	}
	return reasons
}
