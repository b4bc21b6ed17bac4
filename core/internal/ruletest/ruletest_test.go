package ruletest

import (
	"fmt"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/prloop/gh-prloop/core/problems"
)

// recorder stands in for *testing.T so a helper's failures can be observed.
type recorder struct {
	testing.TB
	errors []string
	fatal  string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(r)
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// run calls f with a recorder and returns what it recorded.
func run(f func(testing.TB)) (r *recorder) {
	r = &recorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
	}()
	f(r)
	return r
}

func TestAssertProblems(t *testing.T) {
	got := problems.List{{Path: "/b", Code: problems.Drift}, {Path: "/a", Code: problems.MissingField}}
	if r := run(func(tb testing.TB) {
		AssertProblems(tb, got, Want{"/a", problems.MissingField}, Want{"/b", problems.Drift})
	}); len(r.errors) != 0 {
		t.Errorf("same problems in another order failed: %v", r.errors)
	}
	for name, wants := range map[string][]Want{
		"missing": {{"/a", problems.MissingField}, {"/b", problems.Drift}, {"/c", problems.Drift}},
		"extra":   {{"/a", problems.MissingField}},
		"code":    {{"/a", problems.MissingField}, {"/b", problems.Mismatch}},
	} {
		if r := run(func(tb testing.TB) { AssertProblems(tb, got, wants...) }); len(r.errors) != 1 {
			t.Errorf("%s: want one failure, got %v", name, r.errors)
		}
	}
}

func TestWalk(t *testing.T) {
	v := map[string]any{"a": []any{"x", map[string]any{"b": "y"}}}
	if At(v, "a", 1, "b") != "y" || Arr(v, "a")[0] != "x" || Obj(v, "a", 1)["b"] != "y" {
		t.Errorf("walk of %v went wrong", v)
	}
}

func seedFile(s string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("go test fuzz v1\n[]byte(" + strconv.Quote(s) + ")\n")}
}

// acceptsObjects stands in for a validator: objects pass, anything else fails.
func acceptsObjects(v any) problems.List {
	if _, ok := v.(map[string]any); ok {
		return problems.List{}
	}
	return problems.List{{Path: "", Code: problems.WrongType}}
}

func TestCheckCorpus(t *testing.T) {
	cases := []struct {
		name   string
		files  fstest.MapFS
		errors int
		fatal  bool
	}{
		{name: "meaningful", files: fstest.MapFS{"F/valid-1": seedFile(`{}`), "F/invalid-1": seedFile(`[]`)}},
		{name: "valid-rejected", files: fstest.MapFS{"F/valid-1": seedFile(`[]`)}, errors: 1},
		{name: "invalid-accepted", files: fstest.MapFS{"F/invalid-1": seedFile(`{}`)}, errors: 1},
		{name: "empty", files: fstest.MapFS{"G/valid-1": seedFile(`{}`)}, fatal: true},
		{name: "not-a-seed", files: fstest.MapFS{"F/valid-1": {Data: []byte(`{}`)}}, fatal: true},
		{name: "not-json", files: fstest.MapFS{"F/valid-1": seedFile(`{`)}, fatal: true},
	}
	for _, c := range cases {
		r := run(func(tb testing.TB) { CheckCorpus(tb, c.files, "F", acceptsObjects) })
		if len(r.errors) != c.errors || (r.fatal != "") != c.fatal {
			t.Errorf("%s: errors %v, fatal %q", c.name, r.errors, r.fatal)
		}
	}
}

func TestFuzzBytes(t *testing.T) {
	want := "{\"a\":\"\\u00e9\x00\"}"
	got, ok := FuzzBytes(seedFile(want).Data)
	if !ok || string(got) != want {
		t.Errorf("FuzzBytes = %q, %v; want %q", got, ok, want)
	}
	for _, bad := range []string{"", "go test fuzz v1\nstring(\"x\")\n", "go test fuzz v1\n[]byte(\"x\"\n", "go test fuzz v1\n[]byte(x)\n"} {
		if _, ok := FuzzBytes([]byte(bad)); ok {
			t.Errorf("FuzzBytes accepted %q", bad)
		}
	}
}

func TestReparse(t *testing.T) {
	v := map[string]any{"b": "é", "a": []any{true, nil}}
	var got any
	if r := run(func(tb testing.TB) { got = Reparse(tb, v) }); r.fatal != "" {
		t.Fatalf("Reparse of a canon value failed: %s", r.fatal)
	}
	if fmt.Sprint(got) != fmt.Sprint(v) {
		t.Errorf("Reparse = %v, want %v", got, v)
	}
	if r := run(func(tb testing.TB) { Reparse(tb, map[string]any{"x": 1.5}) }); r.fatal == "" {
		t.Error("a value canon cannot encode must fail")
	}
}
