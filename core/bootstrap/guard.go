package bootstrap

import (
	"strings"

	"github.com/prloop/gh-prloop/core/problems"
)

// decoded answers "were these fields read cleanly?" (by core/schema or the
// initial validator) so a cross-binding rule never compares the zero value
// of a field that is already reported. A problem at the field, inside it,
// or at an enclosing object counts.
type decoded problems.List

func (d decoded) ok(paths ...string) bool {
	for _, p := range d {
		for _, want := range paths {
			if p.Path == want || strings.HasPrefix(p.Path, want+"/") || strings.HasPrefix(want, p.Path+"/") {
				return false
			}
		}
	}
	return true
}

// without drops the problems at or under prefix.
func without(l problems.List, prefix string) problems.List {
	out := problems.List{}
	for _, p := range l {
		if p.Path != prefix && !strings.HasPrefix(p.Path, prefix+"/") {
			out = append(out, p)
		}
	}
	return out
}
