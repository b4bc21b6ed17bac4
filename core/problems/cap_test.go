package problems

import (
	"strconv"
	"strings"
	"testing"
)

// TestListCap: a list keeps the first MaxProblems problems in order and one
// final too-many-problems problem that counts the rest, however many rules
// a hostile document breaks.
func TestListCap(t *testing.T) {
	var l List
	const total = 3*MaxProblems + 7
	for i := 0; i < total; i++ {
		l.Add(Join("", i), UnknownField, "field %d", i)
	}
	if len(l) != MaxProblems+1 {
		t.Fatalf("len = %d, want %d", len(l), MaxProblems+1)
	}
	for i := 0; i < MaxProblems; i++ {
		if l[i].Path != "/"+strconv.Itoa(i) {
			t.Fatalf("problem %d has path %q: the first problems must be kept in order", i, l[i].Path)
		}
	}
	last := l[MaxProblems]
	if last.Code != TooMany || last.Path != "" {
		t.Fatalf("last problem = %+v, want code %s at the root", last, TooMany)
	}
	rest := total - MaxProblems
	if !strings.HasPrefix(last.Message, strconv.Itoa(rest)+" more problems") {
		t.Fatalf("message %q does not count the %d problems left out", last.Message, rest)
	}
	if l.Dropped() != rest || l.Count() != total {
		t.Fatalf("Dropped = %d, Count = %d; want %d and %d", l.Dropped(), l.Count(), rest, total)
	}
}

// TestListMergeCap: merging capped lists stays capped and keeps the count.
func TestListMergeCap(t *testing.T) {
	var a, b List
	for i := 0; i < MaxProblems+5; i++ {
		a.Add("/a", Syntax, "a")
		b.Add("/b", Syntax, "b")
	}
	a.Merge(b)
	if len(a) != MaxProblems+1 || a.Count() != 2*(MaxProblems+5) {
		t.Fatalf("merged len %d count %d, want %d and %d", len(a), a.Count(), MaxProblems+1, 2*(MaxProblems+5))
	}
	var small List
	small.Add("/x", Syntax, "x")
	small.Merge(List{{Path: "/y", Code: Syntax, Message: "y"}})
	if len(small) != 2 || small.Dropped() != 0 || small.Count() != 2 {
		t.Fatalf("an uncapped merge changed: %+v", small)
	}
}
