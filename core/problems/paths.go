package problems

import "strings"

// CleanAt reports whether no problem sits at, under, or at an object
// enclosing any of paths. Semantic rules ask it first so they never compare
// the zero value of a field whose decoding is already reported.
func (l List) CleanAt(paths ...string) bool {
	for _, p := range l {
		for _, want := range paths {
			if p.Path == want || strings.HasPrefix(p.Path, want+"/") || strings.HasPrefix(want, p.Path+"/") {
				return false
			}
		}
	}
	return true
}

// Without returns the problems that are neither at nor under prefix. The
// result is never nil, so a report built from it prints [] rather than null.
func (l List) Without(prefix string) List {
	out := List{}
	for _, p := range l {
		if p.Path != prefix && !strings.HasPrefix(p.Path, prefix+"/") {
			out = append(out, p)
		}
	}
	return out
}
