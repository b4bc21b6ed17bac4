package docdiff

import (
	"reflect"
	"strings"
	"testing"
)

func mustDiff(t *testing.T, a, b string) []Change {
	t.Helper()
	got, err := Diff([]byte(a), []byte(b))
	if err != nil {
		t.Fatalf("Diff: %v", err)
	}
	return got
}

func TestDiffEqualDocuments(t *testing.T) {
	got := mustDiff(t, `{"a":[1,{"b":null}],"c":"x"}`, `{"a":[1,{"b":null}],"c":"x"}`)
	if got == nil || len(got) != 0 {
		t.Fatalf("want empty non-nil, got %#v", got)
	}
}

func TestDiffPaths(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want []Change
	}{
		{
			name: "scalar changed deep inside",
			a:    `{"initial_snapshot":{"base_sha":"aa","host":"github.com"}}`,
			b:    `{"initial_snapshot":{"base_sha":"bb","host":"github.com"}}`,
			want: []Change{{Path: "/initial_snapshot/base_sha", Kind: Changed, Old: `"aa"`, New: `"bb"`}},
		},
		{
			name: "member added and removed",
			a:    `{"a":1,"b":2}`,
			b:    `{"b":2,"c":{"d":true}}`,
			want: []Change{
				{Path: "/a", Kind: Removed, Old: "1"},
				{Path: "/c", Kind: Added, New: `{"d":true}`},
			},
		},
		{
			name: "type change is one change, not a recursion",
			a:    `{"a":{"x":1}}`,
			b:    `{"a":[1]}`,
			want: []Change{{Path: "/a", Kind: Changed, Old: `{"x":1}`, New: "[1]"}},
		},
		{
			name: "null to value",
			a:    `{"existing_pr_number":null}`,
			b:    `{"existing_pr_number":42}`,
			want: []Change{{Path: "/existing_pr_number", Kind: Changed, Old: "null", New: "42"}},
		},
		{
			name: "inserted array element does not shift the rest",
			a:    `{"paths":["a","c","d"]}`,
			b:    `{"paths":["a","b","c","d"]}`,
			want: []Change{{Path: "/paths/1", Kind: Added, New: `"b"`}},
		},
		{
			name: "removed array element reports its old index",
			a:    `{"paths":["a","b","c"]}`,
			b:    `{"paths":["a","c"]}`,
			want: []Change{{Path: "/paths/1", Kind: Removed, Old: `"b"`}},
		},
		{
			name: "replaced element of objects recurses",
			a:    `{"r":[{"p":"a","h":"1"},{"p":"b","h":"2"},{"p":"c","h":"3"}]}`,
			b:    `{"r":[{"p":"a","h":"1"},{"p":"b","h":"9"},{"p":"c","h":"3"}]}`,
			want: []Change{{Path: "/r/1/h", Kind: Changed, Old: `"2"`, New: `"9"`}},
		},
		{
			name: "keys needing pointer escapes",
			a:    `{"a/b":1,"m~n":1}`,
			b:    `{"a/b":2,"m~n":3}`,
			want: []Change{
				{Path: "/a~1b", Kind: Changed, Old: "1", New: "2"},
				{Path: "/m~0n", Kind: Changed, Old: "1", New: "3"},
			},
		},
		{
			name: "root changed",
			a:    `1`,
			b:    `"x"`,
			want: []Change{{Path: "", Kind: Changed, Old: "1", New: `"x"`}},
		},
		{
			name: "non-ASCII stays readable",
			a:    `{"t":"é"}`,
			b:    `{"t":"ü"}`,
			want: []Change{{Path: "/t", Kind: Changed, Old: `"é"`, New: `"ü"`}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustDiff(t, c.a, c.b)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func TestDiffSortedNumerically(t *testing.T) {
	var a, b strings.Builder
	a.WriteString(`{"x":[`)
	b.WriteString(`{"x":[`)
	for i := 0; i < 12; i++ {
		if i > 0 {
			a.WriteString(",")
			b.WriteString(",")
		}
		a.WriteString(`{"v":0}`)
		b.WriteString(`{"v":1}`)
	}
	a.WriteString(`],"a":0}`)
	b.WriteString(`],"a":1}`)
	got := mustDiff(t, a.String(), b.String())
	var paths []string
	for _, c := range got {
		paths = append(paths, c.Path)
	}
	want := []string{"/a"}
	for i := 0; i < 12; i++ {
		want = append(want, "/x/"+itoa(i)+"/v")
	}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("got %v\nwant %v", paths, want)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestDiffClipsLongValues(t *testing.T) {
	long := strings.Repeat("é", MaxValueBytes)
	got := mustDiff(t, `{"a":"`+long+`"}`, `{"a":"x"}`)
	if len(got) != 1 {
		t.Fatalf("got %#v", got)
	}
	old := got[0].Old
	if !strings.HasSuffix(old, Clip) || len(old) > MaxValueBytes+len(Clip) {
		t.Fatalf("not clipped: %d bytes", len(old))
	}
	if strings.ContainsRune(strings.TrimSuffix(old, Clip), '\uFFFD') {
		t.Fatal("clipped inside a rune")
	}
}

func TestDiffRejectsNonCanonicalInput(t *testing.T) {
	for _, bad := range []string{``, `{"a":1,"a":2}`, `{"a":1.5}`, `{"a":1} x`} {
		if _, err := Diff([]byte(bad), []byte(`{}`)); err == nil {
			t.Errorf("approved %q: want error", bad)
		}
		if _, err := Diff([]byte(`{}`), []byte(bad)); err == nil {
			t.Errorf("rebuilt %q: want error", bad)
		}
	}
}

// The big-array fallback must still report every difference.
func TestDiffLargeArraysFallBackIndexWise(t *testing.T) {
	n := 3000
	var a, b strings.Builder
	a.WriteString("[")
	b.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			a.WriteString(",")
			b.WriteString(",")
		}
		a.WriteString(itoa(i))
		b.WriteString(itoa(i + 1)) // every element differs; n*n exceeds the LCS budget
	}
	a.WriteString("]")
	b.WriteString("]")
	got := mustDiff(t, a.String(), b.String())
	if len(got) != n {
		t.Fatalf("got %d changes, want %d", len(got), n)
	}
	if got[n-1].Path != "/"+itoa(n-1) || got[n-1].Kind != Changed {
		t.Fatalf("last: %#v", got[n-1])
	}
}

func TestAlignArraysMixed(t *testing.T) {
	// old: a b c d e ; new: x a c d' e y  -> b removed, x added, d->d', y added
	gaps := alignArrays([]string{"a", "b", "c", "d", "e"}, []string{"x", "a", "c", "D", "e", "y"})
	want := []gap{{new: []int{0}}, {old: []int{1}}, {old: []int{3}, new: []int{3}}, {new: []int{5}}}
	if !reflect.DeepEqual(gaps, want) {
		t.Fatalf("got %#v\nwant %#v", gaps, want)
	}
}

func BenchmarkDiffPathRecords(b *testing.B) {
	var x, y strings.Builder
	x.WriteString(`{"path_records":[`)
	y.WriteString(`{"path_records":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			x.WriteString(",")
			y.WriteString(",")
		}
		rec := `{"path":"p` + itoa(i) + `","h":"` + strings.Repeat("a", 64) + `"}`
		x.WriteString(rec)
		if i == 500 {
			rec = `{"path":"p` + itoa(i) + `","h":"` + strings.Repeat("b", 64) + `"}`
		}
		y.WriteString(rec)
	}
	x.WriteString("]}")
	y.WriteString("]}")
	xa, ya := []byte(x.String()), []byte(y.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Diff(xa, ya); err != nil {
			b.Fatal(err)
		}
	}
}
