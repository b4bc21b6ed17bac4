package validate

import (
	"strings"

	"github.com/prloop/gh-prloop/core/problems"
)

// decoded answers "did core/schema read these fields cleanly?" so semantic
// rules never compare the zero value of a field that is already reported. A
// problem at the field, inside it, or at any object enclosing it counts.
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
