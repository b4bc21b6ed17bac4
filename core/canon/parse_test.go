package canon

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

func TestParseRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		code string
		off  int64
	}{
		{"empty", "", CodeEmptyInput, 0},
		{"whitespace only", " \t\r\n", CodeEmptyInput, 4},
		{"invalid utf8 raw", "\xff", CodeInvalidUTF8, 0},
		{"invalid utf8 raw in array", `[1,` + "\xc3" + `]`, CodeInvalidUTF8, 3},
		{"invalid utf8 in string", `"a` + "\xff" + `"`, CodeInvalidUTF8, 2},
		{"invalid utf8 after escape", `"\n` + "\xc0\xaf" + `"`, CodeInvalidUTF8, 3},
		{"overlong utf8", `"` + "\xc0\x80" + `"`, CodeInvalidUTF8, 1},
		{"encoded surrogate utf8", `"` + "\xed\xa0\x80" + `"`, CodeInvalidUTF8, 1},
		{"truncated utf8", `"` + "\xe2\x82" + `"`, CodeInvalidUTF8, 1},
		{"invalid utf8 in key", `{"` + "\xfe" + `":1}`, CodeInvalidUTF8, 2},
		{"lone high surrogate", `"\ud800"`, CodeLoneSurrogate, 1},
		{"lone low surrogate", `"\udc00"`, CodeLoneSurrogate, 1},
		{"high then non-surrogate", `"\ud83d\u0041"`, CodeLoneSurrogate, 1},
		{"high then high", `"\ud83d\ud83d"`, CodeLoneSurrogate, 1},
		{"high then text", `"\ud83dx"`, CodeLoneSurrogate, 1},
		{"high at end", `"ab\uD800`, CodeLoneSurrogate, 3},
		{"lone surrogate in key", `{"\udfff":1}`, CodeLoneSurrogate, 2},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, CodeDuplicateKey, 13},
		{"duplicate key after unescape", `{"a":1,"\u0061":2}`, CodeDuplicateKey, 7},
		{"duplicate astral key", `{"😀":1,"\ud83d\ude00":2}`, CodeDuplicateKey, 10},
		{"duplicate nested", `[{"x":{"k":1,"k":1}}]`, CodeDuplicateKey, 13},
		{"fraction", `1.5`, CodeNotInteger, 0},
		{"zero fraction", `[1.0]`, CodeNotInteger, 1},
		{"exponent", `1e3`, CodeNotInteger, 0},
		{"signed exponent", `{"a":-2E-1}`, CodeNotInteger, 5},
		{"NaN", `NaN`, CodeNaNInfinity, 0},
		{"Infinity", `[Infinity]`, CodeNaNInfinity, 1},
		{"-Infinity", `{"a":-Infinity}`, CodeNaNInfinity, 5},
		{"trailing value", `{} {}`, CodeTrailingData, 3},
		{"trailing garbage", `1 x`, CodeTrailingData, 2},
		{"trailing number chars", `12a`, CodeTrailingData, 2},
		{"trailing nul", "null\x00", CodeTrailingData, 4},
		{"too deep arrays", nest("[", "]", MaxDepth+1), CodeTooDeep, MaxDepth},
		{"too deep objects", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), CodeTooDeep, 5 * MaxDepth},
		{"too deep mixed", strings.Repeat(`[{"a":`, 33) + "1" + strings.Repeat("}]", 33), CodeTooDeep, 6 * 32},
		{"leading zero", `01`, CodeSyntax, 0},
		{"negative leading zero", `-01`, CodeSyntax, 0},
		{"plus sign", `+1`, CodeSyntax, 0},
		{"bare minus", `-`, CodeSyntax, 1},
		{"minus letter", `-x`, CodeSyntax, 1},
		{"dot without digits", `1.`, CodeSyntax, 2},
		{"leading dot", `.5`, CodeSyntax, 0},
		{"exponent without digits", `1e`, CodeSyntax, 2},
		{"hex number", `0x10`, CodeTrailingData, 1},
		{"unterminated string", `"abc`, CodeSyntax, 0},
		{"unterminated escaped string", `"a\n`, CodeSyntax, 0},
		{"raw newline in string", "\"a\nb\"", CodeSyntax, 2},
		{"raw nul in string", "\"\x00\"", CodeSyntax, 1},
		{"raw tab in escaped string", "\"\\n\t\"", CodeSyntax, 3},
		{"bad escape", `"\x41"`, CodeSyntax, 1},
		{"single quote escape", `"\'"`, CodeSyntax, 1},
		{"short unicode escape", `"\u12"`, CodeSyntax, 1},
		{"bad hex in escape", `"\u12g4"`, CodeSyntax, 1},
		{"bad low after high", `"\ud83d\uzzzz"`, CodeSyntax, 7},
		{"single quotes", `'a'`, CodeSyntax, 0},
		{"unquoted key", `{a:1}`, CodeSyntax, 1},
		{"trailing comma object", `{"a":1,}`, CodeSyntax, 7},
		{"trailing comma array", `[1,]`, CodeSyntax, 3},
		{"missing colon", `{"a" 1}`, CodeSyntax, 5},
		{"missing comma", `[1 2]`, CodeSyntax, 3},
		{"unclosed array", `[1`, CodeSyntax, 2},
		{"unclosed object", `{"a":1`, CodeSyntax, 6},
		{"lone close", `]`, CodeSyntax, 0},
		{"bad literal", `tru`, CodeSyntax, 0},
		{"capital literal", `True`, CodeSyntax, 0},
		{"nan lowercase", `nan`, CodeSyntax, 0},
		{"NaN prefix only", `Nope`, CodeSyntax, 0},
		{"bom", "\xef\xbb\xbf{}", CodeSyntax, 0},
		{"comment", `[1 /* x */]`, CodeSyntax, 3},
		{"non-json whitespace", "\v1", CodeSyntax, 0},
		{"nbsp whitespace", "\u00a01", CodeSyntax, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Parse([]byte(tc.in))
			if err == nil {
				t.Fatalf("Parse(%q) = %#v, want error %s", tc.in, v, tc.code)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T %v is not *SyntaxError", tc.in, err, err)
			}
			if se.Code != tc.code || se.Offset != tc.off {
				t.Fatalf("Parse(%q) = code %q offset %d (%v), want code %q offset %d", tc.in, se.Code, se.Offset, err, tc.code, tc.off)
			}
			if v != nil {
				t.Fatalf("Parse(%q) returned a value with an error: %#v", tc.in, v)
			}
			if msg := err.Error(); !strings.Contains(msg, "offset") || !strings.Contains(msg, tc.code) {
				t.Fatalf("error text %q should name the offset and code", msg)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	big := "18446744073709551616123456789012345678901234567890"
	cases := []struct {
		name string
		in   string
		want any
	}{
		{"null", `null`, nil},
		{"true", ` true `, true},
		{"false", "\n\r\tfalse", false},
		{"zero", `0`, Number("0")},
		{"minus zero", `-0`, Number("0")},
		{"minus zero in array", `[-0, 0]`, []any{Number("0"), Number("0")}},
		{"small", `[7, 42, 999, 1000, -5]`, []any{Number("7"), Number("42"), Number("999"), Number("1000"), Number("-5")}},
		{"2^64", `18446744073709551616`, Number("18446744073709551616")},
		{"big negative", "-" + big, Number("-" + big)},
		{"empty string", `""`, ""},
		{"short escapes", `"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{"unicode escapes", `"\u0000\u001F\u00e9\u2028"`, "\x00\x1f\u00e9\u2028"},
		{"surrogate pair", `"\ud83d\ude00"`, "😀"},
		{"surrogate pair uppercase", `"x\uD83D\uDE00y"`, "x😀y"},
		{"raw astral", `"😀"`, "😀"},
		{"raw del and separators", "\"\x7f\u2028\u2029<>&\"", "\x7f\u2028\u2029<>&"},
		{"raw U+FFFD is valid", "\"\uFFFD\"", "\uFFFD"},
		{"escaped replacement char", `"\ufffd"`, "\uFFFD"},
		{"empty containers", `{"a":[],"b":{}}`, map[string]any{"a": []any{}, "b": map[string]any{}}},
		{"nested", `{"a":{"b":[1,"x",null,true]}}`, map[string]any{"a": map[string]any{"b": []any{Number("1"), "x", nil, true}}}},
		{"escaped key", `{"\u0061b":1, "a\u0062c":2}`, map[string]any{"ab": Number("1"), "abc": Number("2")}},
		{"keys differing only after unescape", `{"a":1,"\u0041":2}`, map[string]any{"a": Number("1"), "A": Number("2")}},
		{"max depth arrays", nest("[", "]", MaxDepth), nestedArrays(MaxDepth)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Parse(%q) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}

func nestedArrays(n int) any {
	var v any = []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

func TestParseMaxDepthObjects(t *testing.T) {
	in := strings.Repeat(`{"a":`, MaxDepth-1) + "{}" + strings.Repeat("}", MaxDepth-1)
	if _, err := Parse([]byte(in)); err != nil {
		t.Fatalf("depth %d objects rejected: %v", MaxDepth, err)
	}
	in = strings.Repeat(`{"a":`, MaxDepth) + "{}" + strings.Repeat("}", MaxDepth)
	if _, err := Parse([]byte(in)); err == nil {
		t.Fatalf("depth %d objects accepted", MaxDepth+1)
	}
}

// The parser builds containers on shared stacks; siblings and nesting must
// not leak members or elements into each other.
func TestParseSharedStacks(t *testing.T) {
	in := `{"a":[1,[2,3],{"b":[4],"c":{}}],"d":{"e":[5,6]},"f":[[],[[]]]}`
	want := map[string]any{
		"a": []any{Number("1"), []any{Number("2"), Number("3")}, map[string]any{"b": []any{Number("4")}, "c": map[string]any{}}},
		"d": map[string]any{"e": []any{Number("5"), Number("6")}},
		"f": []any{[]any{}, []any{[]any{}}},
	}
	got, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

// Escaped strings share one decode buffer; a key decoded with escapes must
// not be overwritten by the next escaped string.
func TestParseScratchReuse(t *testing.T) {
	got, err := Parse([]byte(`{"k\n1":"v\t1","k\n2":"v\t2","k\n1x":["\"q\""]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"k\n1": "v\t1", "k\n2": "v\t2", "k\n1x": []any{`"q"`}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

// Parse must not keep references into the caller's buffer.
func TestParseDoesNotAliasInput(t *testing.T) {
	in := []byte(`{"key":"value","n":12345678901234567890}`)
	v, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = 'X'
	}
	want := map[string]any{"key": "value", "n": Number("12345678901234567890")}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("value changed with input buffer: %#v", v)
	}
}

// Escaped strings are decoded into one growing buffer and keys are resolved
// only when their object closes; growth in between must not corrupt them.
func TestParseEscapedKeysSurviveBufferGrowth(t *testing.T) {
	var in strings.Builder
	want := map[string]any{}
	in.WriteString("{")
	for i := 0; i < 200; i++ {
		if i > 0 {
			in.WriteString(",")
		}
		// JSON text: escaped newline in the key, escaped tab in the inner
		// key, escaped backslashes in the value.
		fmt.Fprintf(&in, `"k\n%03d":{"inner\t":"%s"}`, i, strings.Repeat(`\\x`, 100+i))
		want[fmt.Sprintf("k\n%03d", i)] = map[string]any{"inner\t": strings.Repeat(`\x`, 100+i)}
	}
	in.WriteString("}")
	got, err := Parse([]byte(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("escaped keys or values were corrupted")
	}
	canon, err := Canonicalize([]byte(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := Encode(want)
	if err != nil || string(canon) != string(enc) {
		t.Fatalf("Canonicalize differs from Encode of the expected value (%v)", err)
	}
}
