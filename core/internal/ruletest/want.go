package ruletest

import (
	"slices"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/problems"
)

// Want is one expected problem: {path, code}. Messages are for humans and
// free to change; paths and codes are the contract. It is an array rather
// than a struct so tables can keep writing want{path, code}.
type Want [2]string

// Path is the JSON pointer the problem must carry.
func (w Want) Path() string { return w[0] }

// Code is the stable problem code it must carry.
func (w Want) Code() string { return w[1] }

// AssertProblems requires got to hold exactly the wanted problems, no more:
// a case proves its rule only if nothing else rejected the document.
func AssertProblems(t testing.TB, got problems.List, wants ...Want) {
	t.Helper()
	var g, w []string
	for _, p := range got {
		g = append(g, p.Path+" "+p.Code)
	}
	for _, x := range wants {
		w = append(w, x.Path()+" "+x.Code())
	}
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("problems:\n got  %s\n want %s\nfull: %v", strings.Join(g, " | "), strings.Join(w, " | "), got)
	}
}
