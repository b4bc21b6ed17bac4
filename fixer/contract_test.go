package fixer

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := []Thread{
		{ThreadID: "PRRT_b", Path: "internal/retry/budget.go", Line: ptr(17), Priority: ptr("P1"), Title: "Reset", Body: "body"},
		{ThreadID: "PRRT_a", Path: "docs/getting started.md", Line: ptr(3), StartLine: ptr(1), Title: "Doc", Body: ""},
		{ThreadID: "PRRT_c", Path: "x.go", Title: "file-level", Body: "b"},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := Decode(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(out) != 3 || out[0].ThreadID != "PRRT_a" || out[1].ThreadID != "PRRT_b" || *out[1].Line != 17 || *out[1].Priority != "P1" ||
		out[2].Line != nil || out[2].Priority != nil || *out[0].StartLine != 1 {
		t.Fatalf("round trip: %+v", out)
	}
	var empty bytes.Buffer
	if err := Encode(&empty, nil); err != nil || strings.TrimSpace(empty.String()) != "[]" {
		t.Fatalf("no threads: %q %v", empty.String(), err)
	}
}

// Every violation is an InputError with the stable code and the JSON path.
func TestDecodeNamesTheJSONPath(t *testing.T) {
	ok := `"thread_id":"T1","path":"a.go","title":"t","body":"b"`
	cases := []struct{ in, path string }{
		{`{}`, "$"},
		{`null`, "$"},
		{`[1]`, "$"},
		{`[null]`, "$[0]"},
		{`[{` + ok + `,"line":0}]`, "$[0].line"},
		{`[{` + ok + `,"line":"3"}]`, "$[0].line"},
		{`[{` + ok + `,"line":2.5}]`, "$[0].line"},
		{`[{` + ok + `,"line":2,"start_line":3}]`, "$[0].start_line"},
		{`[{` + ok + `,"start_line":3}]`, "$[0].start_line"},
		{`[{` + ok + `,"priority":"P4"}]`, "$[0].priority"},
		{`[{` + ok + `,"priority":1}]`, "$[0].priority"},
		{`[{` + ok + `,"extra":1}]`, "$[0].extra"},
		{`[{` + ok + `},{"path":"a.go","title":"t","body":"b"}]`, "$[1].thread_id"},
		{`[{` + ok + `},{` + ok + `}]`, "$[1].thread_id"},
		{`[{"thread_id":"T","path":"a.go","title":null,"body":"b"}]`, "$[0].title"},
		{`[{"thread_id":"T","path":"../a.go","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"T","path":"/etc/passwd","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"T","path":"a/./b.go","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"T","path":".git/config","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"T","path":"sub/.GIT/hooks/x","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"T","path":"a\\b.go","title":"t","body":"b"}]`, "$[0].path"},
		{`[{"thread_id":"","path":"a.go","title":"t","body":"b"}]`, "$[0].thread_id"},
	}
	for _, c := range cases {
		_, err := Decode(strings.NewReader(c.in))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err %v, want an InputError", c.in, err)
			continue
		}
		if ie.Path != c.path || !strings.HasPrefix(err.Error(), ErrCode+": "+c.path+": ") {
			t.Errorf("%s: %v, want path %s", c.in, err, c.path)
		}
	}
	if _, err := Decode(strings.NewReader(`[{` + ok + `,"line":null,"start_line":null,"priority":null}]`)); err != nil {
		t.Fatalf("nulls refused: %v", err)
	}
}

func TestDecodeBoundsTheInput(t *testing.T) {
	big := "[" + strings.Repeat(" ", MaxInputBytes) + "]"
	var ie *InputError
	if _, err := Decode(strings.NewReader(big)); !errors.As(err, &ie) || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized input: %v", err)
	}
}
