package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

type marshalInner struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Tags  []string `json:"tags,omitempty"`
}

type marshalOuter struct {
	Zeta    string            `json:"zeta"`
	Alpha   *marshalInner     `json:"alpha"`
	Items   []marshalInner    `json:"items"`
	Extra   map[string]any    `json:"extra"`
	Big     Number            `json:"big"`
	Labels  map[string]string `json:"labels"`
	Ignored string            `json:"-"`
	Skip    string            `json:"skip,omitempty"`
	Ratio   float64           `json:"ratio"`
}

func TestMarshalStruct(t *testing.T) {
	v := marshalOuter{
		Zeta:    "<b>&\u2028",
		Alpha:   &marshalInner{Name: "a", Count: 2, Tags: []string{"x"}},
		Items:   []marshalInner{{Name: "i", Count: -0}},
		Extra:   map[string]any{"k": []any{true, nil}},
		Big:     Number("-98765432109876543210"),
		Labels:  map[string]string{"b": "2", "a": "1"},
		Ignored: "no",
		Ratio:   3,
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"alpha":{"count":2,"name":"a","tags":["x"]},"big":-98765432109876543210,"extra":{"k":[true,null]},` +
		`"items":[{"count":0,"name":"i"}],"labels":{"a":"1","b":"2"},"ratio":3,"zeta":"<b>&` + "\u2028" + `"}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// Marshal's fast path must give exactly what its definition (encoding/json,
// then Canonicalize) gives for every value Encode accepts.
func TestMarshalFastPathMatchesDefinition(t *testing.T) {
	values := []any{
		nil, true, "x<>&\u2028\x7f\x01", Number("-0"), Number("123456789012345678901234"),
		int8(-3), uint64(1 << 63), json.Number("-17"),
		[]string{"b", "a"}, []string(nil), []any(nil), map[string]any(nil),
		map[string]any{"\uffff": 1, "\U0001F600": []any{map[string]any{"a": "b"}}, "": []string{}},
	}
	for _, v := range values {
		fast, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := Canonicalize(raw)
		if err != nil {
			t.Fatalf("definition path for %#v: %v", v, err)
		}
		if !bytes.Equal(fast, slow) {
			t.Errorf("Marshal(%#v) fast %s != definition %s", v, fast, slow)
		}
	}
}

func TestMarshalRejects(t *testing.T) {
	cases := []struct {
		name string
		in   any
		code string
	}{
		{"fraction", map[string]any{"a": 1.5}, CodeNotInteger},
		{"large float prints exponent", 1e21, CodeNotInteger},
		{"fraction json.Number", json.Number("2.5"), CodeNotInteger},
		{"too deep struct", deepStruct(MaxDepth + 1), CodeTooDeep},
	}
	for _, tc := range cases {
		_, err := Marshal(tc.in)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Code != tc.code {
			t.Errorf("%s: Marshal error %v, want code %s", tc.name, err, tc.code)
		}
	}
	if _, err := Marshal(map[string]any{"n": Number("1.0")}); err == nil {
		t.Error("Marshal accepted an invalid Number")
	}
	if _, err := Marshal(make(chan int)); err == nil {
		t.Error("Marshal accepted a channel")
	}
}

type deepNode struct {
	Child *deepNode `json:"c,omitempty"`
}

func deepStruct(n int) *deepNode {
	var d *deepNode
	for i := 0; i < n; i++ {
		d = &deepNode{Child: d}
	}
	return d
}

func TestMarshalDepthBoundary(t *testing.T) {
	if _, err := Marshal(deepStruct(MaxDepth)); err != nil {
		t.Fatalf("depth %d struct rejected: %v", MaxDepth, err)
	}
}

func TestNumberMarshalJSON(t *testing.T) {
	b, err := json.Marshal(map[string]Number{"a": "-0", "b": "12"})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"a":0,"b":12}` {
		t.Fatalf("got %s", b)
	}
	if _, err := json.Marshal(Number("1e3")); err == nil {
		t.Fatal("invalid Number marshalled")
	}
}

func TestMarshalRefusesInvalidUTF8(t *testing.T) {
	type withString struct {
		S string `json:"s"`
	}
	surrogate := "\xed\xa0\x80"
	bad := []any{
		withString{S: "ok\xffok"},
		map[string]any{"a": []any{"\xc3"}},
		map[string]withString{"k\xfe": {S: "x"}},
		struct{ P *string }{P: &surrogate},
	}
	for _, v := range bad {
		_, err := Marshal(v)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Code != CodeInvalidUTF8 {
			t.Errorf("Marshal(%#v) = %v, want an invalid-utf8 error", v, err)
		}
		if _, err := HashValue(v); err == nil {
			t.Errorf("HashValue(%#v) accepted invalid UTF-8", v)
		}
	}
	// A real U+FFFD, and a raw JSON \uFFFD escape, are fine.
	got, err := Marshal(withString{S: "\uFFFD"})
	if err != nil || string(got) != "{\"s\":\"\uFFFD\"}" {
		t.Errorf("Marshal(U+FFFD) = %q, %v", got, err)
	}
	got, err = Marshal(json.RawMessage(`["\uFFFD"]`))
	if err != nil || string(got) != "[\"\uFFFD\"]" {
		t.Errorf("Marshal(RawMessage \\uFFFD) = %q, %v", got, err)
	}
}
