package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

var syntaxCodes = map[string]bool{
	CodeEmptyInput: true, CodeInvalidUTF8: true, CodeLoneSurrogate: true,
	CodeDuplicateKey: true, CodeNotInteger: true, CodeNaNInfinity: true,
	CodeTrailingData: true, CodeTooDeep: true, CodeSyntax: true,
}

// fromEncodingJSON decodes with encoding/json as an independent oracle,
// folding its json.Number into canon's canonical Number.
func fromEncodingJSON(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json rejects what Parse accepted (%q): %v", data, err)
	}
	return foldNumbers(t, v)
}

func foldNumbers(t *testing.T, v any) any {
	switch x := v.(type) {
	case json.Number:
		s, ok := canonicalInteger(string(x))
		if !ok {
			t.Fatalf("Parse accepted non-integer %q", x)
		}
		return Number(s)
	case []any:
		for i := range x {
			x[i] = foldNumbers(t, x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = foldNumbers(t, x[k])
		}
	}
	return v
}

func checkParse(t *testing.T, data []byte) {
	v, err := Parse(data)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || !syntaxCodes[se.Code] {
			t.Fatalf("Parse(%q) error %v has no stable code", data, err)
		}
		if se.Offset < 0 || se.Offset > int64(len(data)) {
			t.Fatalf("Parse(%q) offset %d out of range", data, se.Offset)
		}
		return
	}
	if !json.Valid(data) {
		t.Fatalf("Parse accepted invalid JSON %q", data)
	}
	if want := fromEncodingJSON(t, data); !reflect.DeepEqual(v, want) {
		t.Fatalf("Parse(%q) = %#v, encoding/json reads %#v", data, v, want)
	}
	b1, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode of parsed %q: %v", data, err)
	}
	v2, err := Parse(b1)
	if err != nil {
		t.Fatalf("Parse rejects canonical bytes %q: %v", b1, err)
	}
	if !reflect.DeepEqual(v, v2) {
		t.Fatalf("round trip changed value: %#v -> %#v", v, v2)
	}
	b2, err := Encode(v2)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("re-canonicalization differs: %q -> %q (%v)", b1, b2, err)
	}
	h, err := HashValue(v)
	if err != nil || h != Hash(b1) {
		t.Fatalf("HashValue %s (%v) != Hash(Encode) %s", h, err, Hash(b1))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"a":[1,-0,"\ud83d\ude00"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, data)
	})
}

func FuzzCanonicalize(f *testing.F) {
	f.Add([]byte(` { "b" : 1 , "a" : "\u2028" } `))
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, err := Canonicalize(data)
		_, perr := Parse(data)
		if fmt.Sprint(err) != fmt.Sprint(perr) {
			t.Fatalf("Canonicalize error %v but Parse error %v", err, perr)
		}
		if err != nil {
			return
		}
		v, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		viaTree, err := Encode(v)
		if err != nil || !bytes.Equal(c1, viaTree) {
			t.Fatalf("Canonicalize %q != Encode(Parse) %q (%v)", c1, viaTree, err)
		}
		c2, err := Canonicalize(c1)
		if err != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("not idempotent: %q -> %q (%v)", c1, c2, err)
		}
		// Marshal refuses the escape \ufffd (encoding/json's mark for
		// replaced invalid UTF-8); everything else must match.
		if !bytes.Contains(data, []byte(`\ufffd`)) {
			if c3, err := Marshal(json.RawMessage(data)); err != nil || !bytes.Equal(c1, c3) {
				t.Fatalf("Marshal(RawMessage) %q (%v) != Canonicalize %q", c3, err, c1)
			}
		}
	})
}

// The committed seed corpora run as ordinary tests; this adds the generated
// documents so every `go test` exercises the same properties at volume.
func TestFuzzPropertiesOnGeneratedDocs(t *testing.T) {
	g := newDocGen(7)
	for i := 0; i < 2000; i++ {
		checkParse(t, g.noisy(nil, g.value(0)))
	}
}
