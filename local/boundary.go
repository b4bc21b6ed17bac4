package local

import (
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// appliedBoundary holds the protections as git actually applies them: each
// boolean is read back from the effective configuration (in which the
// runner's -c values come last) and the runner's invocation, never assumed.
type appliedBoundary struct {
	hooksDisabled        bool
	fsmonitorDisabled    bool
	signingDisabled      bool
	protocolRestricted   bool
	protectHFS           bool
	protectNTFS          bool
	externalDiffDisabled bool
	textconvDisabled     bool
	credentialsOnlyOurs  bool
	activeCleanFilters   []string
}

func applied(c *config, r *gitx.Runner) appliedBoundary {
	inv := r.Invocation()
	var a appliedBoundary
	if v, _, found := c.get("core.hookspath"); found {
		a.hooksDisabled = v == gitx.HooksPath
	}
	if v, ok := c.boolean("core.fsmonitor"); ok {
		a.fsmonitorDisabled = !v
	}
	a.signingDisabled = isFalse(c, "commit.gpgsign") && isFalse(c, "tag.gpgsign") && isFalse(c, "push.gpgsign")
	a.protocolRestricted = protocolRestricted(c)
	a.protectHFS = isTrue(c, "core.protecthfs")
	a.protectNTFS = isTrue(c, "core.protectntfs")
	ext, _, _ := c.get("diff.external")
	a.externalDiffDisabled = ext == "" && slices.Contains(inv.DiffArgs, "--no-ext-diff") && inv.Env["GIT_EXTERNAL_DIFF"] == ""
	a.textconvDisabled = slices.Contains(inv.DiffArgs, "--no-textconv")
	// The helper list after git's reset semantics must be exactly the one
	// the invocation installs.
	helpers := c.credentialHelpers()
	want := ""
	for i := 0; i+1 < len(inv.Args); i += 2 {
		if v, ok := strings.CutPrefix(inv.Args[i+1], "credential.helper="); ok && inv.Args[i] == "-c" {
			want = v
		}
	}
	a.credentialsOnlyOurs = len(helpers) == 1 && helpers[0] == want && want != ""
	return a
}

func isTrue(c *config, key string) bool  { v, ok := c.boolean(key); return ok && v }
func isFalse(c *config, key string) bool { v, ok := c.boolean(key); return ok && !v }

// protocolRestricted holds when only https is allowed: protocol.allow is
// never, protocol.https.allow is always, and every other per-protocol
// setting (a repository may set protocol.file.allow=always) is never.
func protocolRestricted(c *config) bool {
	if v, _, _ := c.get("protocol.allow"); v != "never" {
		return false
	}
	if v, _, _ := c.get("protocol.https.allow"); v != "always" {
		return false
	}
	for _, e := range c.entries {
		section, sub, name := splitKey(e.Key)
		if section != "protocol" || name != "allow" || sub == "" || sub == "https" {
			continue
		}
		if v, _, _ := c.get(e.Key); v != "never" {
			return false
		}
	}
	return true
}

// missingProtections names each protection git does not apply.
func (a appliedBoundary) missingProtections() []string {
	var out []string
	for _, p := range []struct {
		ok   bool
		name string
	}{
		{a.hooksDisabled, "hooks disabled"},
		{a.fsmonitorDisabled, "fsmonitor disabled"},
		{a.signingDisabled, "signing disabled"},
		{a.protocolRestricted, "https-only protocols"},
		{a.protectHFS, "core.protectHFS"},
		{a.protectNTFS, "core.protectNTFS"},
		{a.externalDiffDisabled, "external diff disabled"},
		{a.textconvDisabled, "textconv disabled"},
		{a.credentialsOnlyOurs, "the invocation's credential helper as the only one"},
	} {
		if !p.ok {
			out = append(out, p.name)
		}
	}
	return out
}
