package local

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/prloop/gh-prloop/gitx"
)

// activeCleanFilters returns the configured clean filters (drivers with a
// clean or process command) that the attributes activate for any path git
// could run them on: every indexed path and every untracked, not ignored
// one, because status, diff and add run a clean filter on any such file
// whose stat data is stale, not only on changed ones. It must run before
// any of those commands. example maps each filter to one path activating it.
func activeCleanFilters(ctx context.Context, r *gitx.Runner, root string, c *config) (names []string, example map[string][]byte, err error) {
	drivers := c.cleanFilterDrivers()
	if len(drivers) == 0 {
		// A filter attribute without a configured driver does nothing.
		return []string{}, nil, nil
	}
	out, err := r.Run(ctx, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, nil, err
	}
	paths, err := gitx.SplitZ(out)
	if err != nil {
		return nil, nil, err
	}
	var stdin bytes.Buffer
	for _, p := range paths {
		stdin.Write(p)
		stdin.WriteByte(0)
	}
	out, err = r.RunInput(ctx, root, stdin.Bytes(), "check-attr", "-z", "--stdin", "filter")
	if err != nil {
		return nil, nil, err
	}
	recs, err := gitx.SplitZ(out)
	if err != nil {
		return nil, nil, err
	}
	if len(recs)%3 != 0 {
		return nil, nil, fmt.Errorf("local: check-attr -z output has %d records", len(recs))
	}
	example = map[string][]byte{}
	for i := 0; i < len(recs); i += 3 {
		value := string(recs[i+2])
		if drivers[value] {
			if _, seen := example[value]; !seen {
				example[value] = recs[i]
			}
		}
	}
	names = make([]string, 0, len(example))
	for n := range example {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, example, nil
}
