package problems

import (
	"encoding/json"
	"testing"
)

func TestCleanAt(t *testing.T) {
	l := List{{Path: "/a/b", Code: WrongType}}
	cases := []struct {
		paths []string
		want  bool
	}{
		{[]string{"/a/b"}, false},     // at the field
		{[]string{"/a"}, false},       // a problem inside the object asked about
		{[]string{"/a/b/c"}, false},   // the object enclosing the field is broken
		{[]string{"/a/bc"}, true},     // a sibling sharing a name prefix is not inside
		{[]string{"/a/c"}, true},      // an unrelated field
		{[]string{"/x", "/a"}, false}, // any one of several paths
		{nil, true},
	}
	for _, c := range cases {
		if got := l.CleanAt(c.paths...); got != c.want {
			t.Errorf("CleanAt(%q) = %v, want %v", c.paths, got, c.want)
		}
	}
	if !(List{}).CleanAt("/a") {
		t.Error("an empty list must be clean everywhere")
	}
	if (List{{Path: ""}}).CleanAt("/a") {
		t.Error("a problem at the document root encloses every path")
	}
}

func TestWithout(t *testing.T) {
	l := List{{Path: "/p"}, {Path: "/p/q"}, {Path: "/pq"}, {Path: "/r"}}
	got := l.Without("/p")
	if len(got) != 2 || got[0].Path != "/pq" || got[1].Path != "/r" {
		t.Fatalf("Without(/p) = %v, want /pq and /r in order", got)
	}
	if len(l) != 4 {
		t.Errorf("Without changed its receiver: %v", l)
	}
	empty := List{{Path: "/p"}}.Without("/p")
	b, err := json.Marshal(empty)
	if err != nil || string(b) != "[]" {
		t.Errorf("Without leaving nothing encodes as %s (err %v), want []", b, err)
	}
}
