package canon

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// pythonCanonical is the normative definition from PROTOCOL.md §2, fed a
// batch of length-prefixed documents on stdin so one interpreter start
// covers every case.
const pythonCanonical = `
import json, sys
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
i = 0
while i < len(data):
    j = data.index(b"\n", i)
    n = int(data[i:j])
    doc = data[j + 1 : j + 1 + n]
    i = j + 1 + n
    obj = json.loads(doc.decode("utf-8"))
    b = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    out.write(b"%d\n" % len(b))
    out.write(b)
`

func runPythonCanonical(t *testing.T, docs [][]byte) [][]byte {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is required for the canonical-JSON parity test: %v", err)
	}
	var in bytes.Buffer
	for _, d := range docs {
		fmt.Fprintf(&in, "%d\n", len(d))
		in.Write(d)
	}
	cmd := exec.Command(py, "-c", pythonCanonical)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 failed: %v\n%s", err, stderr.String())
	}
	var res [][]byte
	for len(out) > 0 {
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			t.Fatalf("malformed python output")
		}
		n, err := strconv.Atoi(string(out[:nl]))
		if err != nil || nl+1+n > len(out) {
			t.Fatalf("malformed python output length %q", out[:nl])
		}
		res = append(res, out[nl+1:nl+1+n])
		out = out[nl+1+n:]
	}
	if len(res) != len(docs) {
		t.Fatalf("python returned %d documents for %d inputs", len(res), len(docs))
	}
	return res
}

// handWrittenParityDocs pin the rules most likely to regress.
func handWrittenParityDocs() []string {
	var all strings.Builder
	all.WriteString(`{"all":"`)
	for c := 0; c < 0x80; c++ {
		switch {
		case c == '"' || c == '\\':
			all.WriteString(`\` + string(rune(c)))
		case c < 0x20:
			fmt.Fprintf(&all, `\u%04x`, c)
		default:
			all.WriteByte(byte(c))
		}
	}
	all.WriteString(`"}`)
	return []string{
		all.String(),
		`"<script>alert('x') && 1 > 0</script>"`,
		"\"\u2028\u2029\x7f\"",
		`"\u2028\u2029\u007f\u00e9\ud83d\ude00"`,
		`{"\uffff":1,"\ud83d\ude00":2,"\ue000":3,"\u00ff":4,"a":5,"A":6,"":7,"\u0000":8}`,
		`[18446744073709551616, -18446744073709551617, 340282366920938463463374607431768211456, -0, 0, -1]`,
		`{"z":{"b":{"d":1,"c":2},"a":[{"y":1,"x":2}]},"a":null}`,
		`{"\u00e9t\u00e9":"caf\u00e9","\u65e5\u672c":"\u8a9e"}`,
		`[true,false,null,"",[],{},[[]],{"":{}}]`,
		`"\b\f\n\r\t\/\\\""`,
	}
}

func TestPythonParity(t *testing.T) {
	var docs [][]byte
	var trees []any // nil entry: hand-written, no Go tree to Encode directly
	for _, d := range handWrittenParityDocs() {
		docs = append(docs, []byte(d))
		trees = append(trees, nil)
	}
	g := newDocGen(20240601)
	for i := 0; i < 3000; i++ {
		v := g.value(0)
		docs = append(docs, g.noisy(nil, v))
		trees = append(trees, v)
	}
	want := runPythonCanonical(t, docs)
	for i, doc := range docs {
		got, err := Canonicalize(doc)
		if err != nil {
			t.Fatalf("doc %d: Canonicalize(%q): %v", i, doc, err)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("doc %d: Canonicalize differs from python\ninput:  %q\ngo:     %q\npython: %q", i, doc, got, want[i])
		}
		parsed, err := Parse(doc)
		if err != nil {
			t.Fatalf("doc %d: Parse: %v", i, err)
		}
		if viaTree, err := Encode(parsed); err != nil || !bytes.Equal(viaTree, want[i]) {
			t.Fatalf("doc %d: Encode(Parse) differs from python (%v)\ngo:     %q\npython: %q", i, err, viaTree, want[i])
		}
		if trees[i] == nil {
			continue
		}
		enc, err := Encode(trees[i])
		if err != nil {
			t.Fatalf("doc %d: Encode: %v", i, err)
		}
		if !bytes.Equal(enc, want[i]) {
			t.Fatalf("doc %d: Encode differs from python\ngo:     %q\npython: %q", i, enc, want[i])
		}
	}
}
