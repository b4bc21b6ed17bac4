package ghsim

import (
	"math"

	"github.com/vektah/gqlparser/v2/ast"
)

// queryCost is GitHub's documented point value of an operation: every
// connection (a field taking first or last) is one request, multiplied by
// the page sizes of the connections it is nested in, as if every page came
// back full; the sum is divided by 100 and rounded, and no call costs less
// than 1. Charging this, rather than a flat point per call, lets tests see
// what a query would really cost on github.com (a nested connection under a
// 100-item page costs 100 requests even when the page is short).
func (ex *executor) queryCost() int {
	requests := 0
	var walk func(set ast.SelectionSet, mult int, seen map[string]bool)
	walk = func(set ast.SelectionSet, mult int, seen map[string]bool) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if n, ok := ex.pageSize(s); ok {
					requests += mult
					walk(s.SelectionSet, mult*n, seen)
					continue
				}
				walk(s.SelectionSet, mult, seen)
			case *ast.InlineFragment:
				walk(s.SelectionSet, mult, seen)
			case *ast.FragmentSpread:
				frag := ex.doc.Fragments.ForName(s.Name)
				if frag == nil || seen[s.Name] {
					continue
				}
				seen[s.Name] = true
				walk(frag.SelectionSet, mult, seen)
				delete(seen, s.Name)
			}
		}
	}
	walk(ex.op.SelectionSet, 1, map[string]bool{})
	return max(1, int(math.Round(float64(requests)/100)))
}

// pageSize is the first or last argument of a field, if it has one.
func (ex *executor) pageSize(f *ast.Field) (int, bool) {
	for _, name := range []string{"first", "last"} {
		a := f.Arguments.ForName(name)
		if a == nil {
			continue
		}
		v, err := a.Value.Value(ex.vars)
		if err != nil {
			return 0, false
		}
		if n, ok := argInt(map[string]any{name: v}, name); ok && n >= 0 {
			return n, true
		}
	}
	return 0, false
}
