package canon

import (
	"encoding/json"
	"hash"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Encode returns the canonical bytes of v. v may be a Value or one of the Go
// shapes that map onto a Value without reflection: bool, string, every int
// kind, []string, []any, map[string]any and an integer json.Number.
//
// Floats are refused: the schemas have none and Python would print them
// differently from Go. A nil slice or map encodes as null, as encoding/json
// does, so Encode and Marshal agree; use an empty non-nil one for [] or {}.
// Any other type is an error; Marshal accepts arbitrary Go values.
func Encode(v any) ([]byte, error) {
	return AppendEncode(nil, v)
}

// AppendEncode appends the canonical bytes of v to dst. On error it returns
// dst with its original length.
func AppendEncode(dst []byte, v any) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.value(v, 0); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// flushAt is how much output the hashing encoder buffers before feeding the
// digest, so HashValue never holds a whole large document.
const flushAt = 32 << 10

type pair struct {
	key string
	val any
}

// encoder writes canonical bytes into buf; with sink set it drains buf into
// the hash as it goes. pairs holds one reusable slice per depth.
type encoder struct {
	buf   []byte
	sink  hash.Hash
	pairs [][]pair
}

func (e *encoder) maybeFlush() {
	if e.sink != nil && len(e.buf) >= flushAt {
		e.sink.Write(e.buf)
		e.buf = e.buf[:0]
	}
}

func (e *encoder) value(v any, depth int) *EncodeError {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		return e.string(x)
	case map[string]any:
		return e.object(x, depth+1)
	case []any:
		return e.array(x, depth+1)
	case Number:
		s, ok := canonicalInteger(string(x))
		if !ok {
			return &EncodeError{Msg: "Number " + strconv.Quote(string(x)) + " is not a canonical decimal integer"}
		}
		e.buf = append(e.buf, s...)
	case bool:
		if x {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int8:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int16:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case uint:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint8:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint16:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint32:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, x, 10)
	case uintptr:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case json.Number:
		s, ok := canonicalInteger(string(x))
		if !ok {
			return &EncodeError{Msg: "json.Number " + strconv.Quote(string(x)) + " is not an integer"}
		}
		e.buf = append(e.buf, s...)
	case []string:
		return e.stringArray(x, depth+1)
	case float32, float64:
		return &EncodeError{Msg: "floats have no canonical form; the schemas use integers only"}
	default:
		return &EncodeError{Msg: "unsupported type " + typeName(v) + " (use Marshal for arbitrary Go values)"}
	}
	return nil
}

func (e *encoder) object(m map[string]any, depth int) *EncodeError {
	if m == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth > MaxDepth {
		return &EncodeError{Msg: "nesting deeper than " + strconv.Itoa(MaxDepth)}
	}
	for len(e.pairs) <= depth {
		e.pairs = append(e.pairs, nil)
	}
	ms := e.pairs[depth][:0]
	for k, v := range m {
		ms = append(ms, pair{key: k, val: v})
	}
	sortPairs(ms)
	e.pairs[depth] = ms
	e.buf = append(e.buf, '{')
	for i := range ms {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.string(ms[i].key); err != nil {
			key := ms[i].key
			clear(ms)
			return err.under(key)
		}
		e.buf = append(e.buf, ':')
		if err := e.value(ms[i].val, depth); err != nil {
			key := ms[i].key
			clear(ms)
			return err.under(key)
		}
		e.maybeFlush()
	}
	e.buf = append(e.buf, '}')
	clear(ms)
	return nil
}

// sortPairs orders by key bytes; byte order of UTF-8 equals code point
// order, which is what Python's sort_keys uses for str. Most objects are
// small, where a plain insertion sort with inlined comparisons wins.
func sortPairs(ms []pair) {
	if len(ms) > 12 {
		slices.SortFunc(ms, func(a, b pair) int { return strings.Compare(a.key, b.key) })
		return
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].key < ms[j-1].key; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func (e *encoder) array(a []any, depth int) *EncodeError {
	if a == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth > MaxDepth {
		return &EncodeError{Msg: "nesting deeper than " + strconv.Itoa(MaxDepth)}
	}
	e.buf = append(e.buf, '[')
	for i, v := range a {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v, depth); err != nil {
			return err.under(strconv.Itoa(i))
		}
		e.maybeFlush()
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *encoder) stringArray(a []string, depth int) *EncodeError {
	if a == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth > MaxDepth {
		return &EncodeError{Msg: "nesting deeper than " + strconv.Itoa(MaxDepth)}
	}
	e.buf = append(e.buf, '[')
	for i, s := range a {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.string(s); err != nil {
			return err.under(strconv.Itoa(i))
		}
		e.maybeFlush()
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *encoder) string(s string) *EncodeError {
	if !utf8.ValidString(s) {
		return &EncodeError{Msg: "string is not valid UTF-8"}
	}
	e.buf = appendQuoted(e.buf, s)
	return nil
}
