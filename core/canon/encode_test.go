package canon

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func mustEncode(t *testing.T, v any) string {
	t.Helper()
	b, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode(%#v): %v", v, err)
	}
	return string(b)
}

func TestEncodeControlCharacters(t *testing.T) {
	short := map[byte]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	for c := 0; c < 0x20; c++ {
		want, ok := short[byte(c)]
		if !ok {
			want = fmt.Sprintf(`\u%04x`, c)
		}
		if got := mustEncode(t, string(rune(c))); got != `"`+want+`"` {
			t.Errorf("control 0x%02x encoded as %s, want \"%s\"", c, got, want)
		}
	}
	if got := mustEncode(t, "\x1f\x1b"); got != `"\u001f\u001b"` {
		t.Errorf("hex escapes must be lowercase, got %s", got)
	}
}

func TestEncodeStringRules(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"quote", `a"b`, `"a\"b"`},
		{"backslash", `a\b`, `"a\\b"`},
		{"slash stays literal", `a/b`, `"a/b"`},
		{"html stays literal", `<script>&amp;</script>`, `"<script>&amp;</script>"`},
		{"DEL literal", "\x7f", "\"\x7f\""},
		{"line separators literal", "\u2028\u2029", "\"\u2028\u2029\""},
		{"non-ascii literal", "é漢字", "\"é漢字\""},
		{"astral literal", "😀\U0010FFFF", "\"😀\U0010FFFF\""},
		{"BOM literal", "\uFEFF", "\"\uFEFF\""},
		{"replacement char literal", "\uFFFD", "\"\uFFFD\""},
		{"nul", "a\x00b", `"a\u0000b"`},
		{"mixed", "\t\"<\u2028>\"\n", "\"\\t\\\"<\u2028>\\\"\\n\""},
		{"empty", "", `""`},
	}
	for _, tc := range cases {
		if got := mustEncode(t, tc.in); got != tc.want {
			t.Errorf("%s: Encode(%q) = %s, want %s", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestEncodeKeyOrderIsCodePointOrder(t *testing.T) {
	m := map[string]any{
		"\U0001F600": 1, // U+1F600 sorts after U+FFFF even though UTF-16 order would put it first
		"\uffff":     2,
		"\u00e9":     3,
		"z":          4,
		"Z":          5,
		"":           6,
		"a":          7,
		"ab":         8,
		"a\x00":      9,
		"\u2028":     10,
	}
	want := `{"":6,"Z":5,"a":7,"a\u0000":9,"ab":8,"z":4,"é":3,"` + "\u2028" + `":10,"` + "\uffff" + `":2,"😀":1}`
	if got := mustEncode(t, m); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestEncodeScalars(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{false, "false"},
		{Number("0"), "0"},
		{Number("-0"), "0"},
		{Number("-123456789012345678901234567890"), "-123456789012345678901234567890"},
		{int(-1), "-1"},
		{int8(math.MinInt8), "-128"},
		{int16(math.MinInt16), "-32768"},
		{int32(math.MinInt32), "-2147483648"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{uint(7), "7"},
		{uint8(255), "255"},
		{uint16(65535), "65535"},
		{uint32(math.MaxUint32), "4294967295"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{uintptr(9), "9"},
		{json.Number("-0"), "0"},
		{json.Number("184467440737095516160"), "184467440737095516160"},
		{[]string{"b", "a"}, `["b","a"]`},
		{[]string{}, `[]`},
		{[]any{}, `[]`},
		{map[string]any{}, `{}`},
		{[]string(nil), "null"},
		{[]any(nil), "null"},
		{map[string]any(nil), "null"},
		{[]any{1, "x", nil, []any{false}}, `[1,"x",null,[false]]`},
	}
	for _, tc := range cases {
		if got := mustEncode(t, tc.in); got != tc.want {
			t.Errorf("Encode(%#v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	deep := any(map[string]any{})
	for i := 0; i < MaxDepth; i++ {
		deep = []any{deep}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	cases := []struct {
		name string
		in   any
		path string
		msg  string
	}{
		{"float64", 1.0, "", "float"},
		{"float32", float32(2), "", "float"},
		{"nested float", map[string]any{"a": []any{1, 2.5}}, "/a/1", "float"},
		{"invalid utf8 value", map[string]any{"k": "\xff"}, "/k", "UTF-8"},
		{"invalid utf8 key", map[string]any{"a\xffb": 1}, "/a\xffb", "UTF-8"},
		{"invalid utf8 in []string", []string{"ok", "\xc3"}, "/1", "UTF-8"},
		{"surrogate bytes", "\xed\xa0\x80", "", "UTF-8"},
		{"bad Number", Number("01"), "", "Number"},
		{"empty Number", Number(""), "", "Number"},
		{"fraction json.Number", json.Number("1.5"), "", "json.Number"},
		{"exponent json.Number", json.Number("1e3"), "", "json.Number"},
		{"empty json.Number", json.Number(""), "", "json.Number"},
		{"struct", struct{ A int }{1}, "", "unsupported type struct"},
		{"pointer", new(int), "", "unsupported type *int"},
		{"map[string]string", map[string]string{}, "", "unsupported type"},
		{"bytes", []byte("x"), "", "unsupported type []uint8"},
		{"too deep", deep, "", "nesting"},
		{"cycle", cyclic, "", "nesting"},
		{"pointer path escaping", map[string]any{"a/b~c": []any{struct{}{}}}, "/a~1b~0c/0", "unsupported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Encode(tc.in)
			if err == nil {
				t.Fatalf("Encode accepted %#v as %s", tc.in, out)
			}
			var ee *EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("error %T is not *EncodeError", err)
			}
			if tc.name != "too deep" && tc.name != "cycle" && ee.Path != tc.path {
				t.Errorf("path %q, want %q", ee.Path, tc.path)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q should mention %q", err, tc.msg)
			}
		})
	}
}

func TestEncodeDepthLimitMatchesParse(t *testing.T) {
	v := nestedArrays(MaxDepth)
	b, err := Encode(v)
	if err != nil {
		t.Fatalf("depth %d rejected: %v", MaxDepth, err)
	}
	if _, err := Parse(b); err != nil {
		t.Fatalf("Parse rejects what Encode produced: %v", err)
	}
	if _, err := Encode([]any{v}); err == nil {
		t.Fatalf("depth %d accepted", MaxDepth+1)
	}
}

func TestAppendEncode(t *testing.T) {
	prefix := []byte("prefix:")
	out, err := AppendEncode(prefix, map[string]any{"b": 1, "a": []any{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `prefix:{"a":["x"],"b":1}` {
		t.Fatalf("got %s", out)
	}
	out, err = AppendEncode(prefix, []any{"ok", 1.5})
	if err == nil {
		t.Fatal("float accepted")
	}
	if string(out) != "prefix:" {
		t.Fatalf("failed AppendEncode returned %q, want the original dst", out)
	}
}

// The encoder keeps one member slice per depth: sibling objects at the same
// depth reuse it and must not see stale keys.
func TestEncodeSiblingObjectsReuseScratch(t *testing.T) {
	v := []any{
		map[string]any{"c": 1, "a": 2, "b": map[string]any{"y": 1, "x": 2}},
		map[string]any{"z": 1},
		map[string]any{"m": map[string]any{"q": 1, "p": 2, "o": 3}, "l": 0},
	}
	want := `[{"a":2,"b":{"x":2,"y":1},"c":1},{"z":1},{"l":0,"m":{"o":3,"p":2,"q":1}}]`
	if got := mustEncode(t, v); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestCanonicalizeRoundTrip(t *testing.T) {
	in := "{ \"b\" : [ 1 , -0 , \"\\u00e9\\ud83d\\ude00\\/\" ] ,\n \"a\" : { \"\\u2028\" : null } }"
	want := "{\"a\":{\"\u2028\":null},\"b\":[1,0,\"é😀/\"]}"
	got, err := Canonicalize([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	again, err := Canonicalize(got)
	if err != nil || string(again) != want {
		t.Fatalf("not idempotent: %s, %v", again, err)
	}
	if _, err := Canonicalize([]byte(`{"a":1,"a":1}`)); err == nil {
		t.Fatal("Canonicalize accepted a duplicate key")
	}
}
