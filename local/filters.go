package local

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/prloop/gh-prloop/gitx"
)

// filterUse is what the filter attributes ask of git for the paths git
// could run a filter on.
type filterUse struct {
	// active are the configured clean filters (drivers with a clean or
	// process command) some path activates.
	active []string
	// unconfigured are the drivers some path's filter attribute names but
	// that the repository's configuration (all the sanitized runner reads)
	// does not define at all. Under the user's own git they may well run:
	// git-lfs installs filter.lfs.* in the global configuration.
	unconfigured []string
	// example maps each name in either list to one path naming it.
	example map[string][]byte
}

// filterAttributes reads the filter attribute of every path git could run
// a filter on: every indexed path and every untracked, not ignored one,
// because status, diff and add run a clean filter on any such file whose
// stat data is stale, not only on changed ones. It runs only ls-files and
// check-attr, which never run a filter, and must come before any command
// that could.
func filterAttributes(ctx context.Context, r *gitx.Runner, root string, c *config) (filterUse, error) {
	clean, configured := c.cleanFilterDrivers(), c.configuredFilterDrivers()
	out, err := r.Run(ctx, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return filterUse{}, err
	}
	paths, err := gitx.SplitZ(out)
	if err != nil {
		return filterUse{}, err
	}
	use := filterUse{active: []string{}, unconfigured: []string{}, example: map[string][]byte{}}
	if len(paths) == 0 {
		return use, nil
	}
	var stdin bytes.Buffer
	for _, p := range paths {
		stdin.Write(p)
		stdin.WriteByte(0)
	}
	out, err = r.RunInput(ctx, root, stdin.Bytes(), "check-attr", "-z", "--stdin", "filter")
	if err != nil {
		return filterUse{}, err
	}
	recs, err := gitx.SplitZ(out)
	if err != nil {
		return filterUse{}, err
	}
	if len(recs)%3 != 0 {
		return filterUse{}, fmt.Errorf("local: check-attr -z output has %d records", len(recs))
	}
	for i := 0; i < len(recs); i += 3 {
		value := string(recs[i+2])
		switch value {
		case "unspecified", "set", "unset":
			// No driver is named: "filter" alone or "-filter" select none.
			continue
		}
		if _, seen := use.example[value]; seen {
			continue
		}
		switch {
		case clean[value]:
			use.active = append(use.active, value)
		case !configured[value]:
			use.unconfigured = append(use.unconfigured, value)
		default:
			// Configured without clean or process (smudge only): nothing
			// runs on status, diff or add, and the repository says so.
			continue
		}
		use.example[value] = recs[i]
	}
	slices.Sort(use.active)
	slices.Sort(use.unconfigured)
	return use, nil
}
