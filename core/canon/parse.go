package canon

import (
	"strconv"
	"unicode/utf8"
)

// MaxDepth is the deepest container nesting Parse and Encode accept:
// 64 nested arrays/objects are fine, 65 are rejected. It bounds recursion on
// untrusted input and matches the protocol's stated limit.
const MaxDepth = 64

// Interning bounds: manifests and observations repeat the same few keys
// thousands of times, so sharing one string per key saves an allocation per
// member without letting a hostile document grow the cache without limit.
const (
	maxInternLen   = 48
	maxInternCount = 4096
)

// Parse decodes one strict JSON document into a Value. It is stricter than
// both encoding/json and Python: anything two decoders could read
// differently is an error (see SyntaxError codes), never silently repaired.
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.skipSpace()
	if p.pos >= len(data) {
		return nil, p.fail(len(data), CodeEmptyInput, "empty input")
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return nil, p.fail(p.pos, CodeTrailingData, "data after the document")
	}
	return v, nil
}

type member struct {
	key string
	val any
	off int
}

// parser is single-pass over data. members and elems are shared stacks so
// each container is built into an exactly sized map or slice once its
// length is known.
type parser struct {
	data    []byte
	pos     int
	scratch []byte
	members []member
	elems   []any
	keys    map[string]string
}

func (p *parser) fail(off int, code, msg string) error {
	return &SyntaxError{Offset: int64(off), Code: code, Msg: msg}
}

// unexpected names the byte at off; a byte that does not start valid UTF-8
// is reported as such because that is the more useful diagnosis.
func (p *parser) unexpected(off int, want string) error {
	if off >= len(p.data) {
		return p.fail(off, CodeSyntax, "unexpected end of input, expected "+want)
	}
	c := p.data[off]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(p.data[off:])
		if r == utf8.RuneError && size == 1 {
			return p.fail(off, CodeInvalidUTF8, "invalid UTF-8")
		}
		return p.fail(off, CodeSyntax, "unexpected "+strconv.QuoteRune(r)+", expected "+want)
	}
	return p.fail(off, CodeSyntax, "unexpected "+strconv.QuoteRune(rune(c))+", expected "+want)
}

func (p *parser) skipSpace() {
	data := p.data
	i := p.pos
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	p.pos = i
}

// value parses the value at p.pos; depth counts the containers around it.
func (p *parser) value(depth int) (any, error) {
	data := p.data
	if p.pos >= len(data) {
		return nil, p.unexpected(p.pos, "a value")
	}
	switch c := data[p.pos]; c {
	case '{':
		return p.object(depth + 1)
	case '[':
		return p.array(depth + 1)
	case '"':
		b, err := p.stringBytes()
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case 't':
		return p.literal("true", true)
	case 'f':
		return p.literal("false", false)
	case 'n':
		return p.literal("null", nil)
	case 'N':
		return nil, p.nonFinite(p.pos, "NaN")
	case 'I':
		return nil, p.nonFinite(p.pos, "Infinity")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		return nil, p.unexpected(p.pos, "a value")
	}
}

func (p *parser) literal(word string, v any) (any, error) {
	end := p.pos + len(word)
	if end > len(p.data) || string(p.data[p.pos:end]) != word {
		return nil, p.fail(p.pos, CodeSyntax, "invalid literal, expected "+word)
	}
	p.pos = end
	return v, nil
}

// nonFinite gives Python's NaN/Infinity extensions their own code because
// json.loads accepts them and a reader should know why we do not.
func (p *parser) nonFinite(off int, word string) error {
	if hasPrefixAt(p.data, p.pos, word) {
		return p.fail(off, CodeNaNInfinity, word+" is not valid JSON")
	}
	return p.unexpected(p.pos, "a value")
}

func hasPrefixAt(data []byte, at int, word string) bool {
	return at+len(word) <= len(data) && string(data[at:at+len(word)]) == word
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number accepts only integers; a well-formed fraction or exponent gets
// not-integer so the cause is clear, anything malformed is a syntax error.
func (p *parser) number() (any, error) {
	data := p.data
	start := p.pos
	i := start
	if data[i] == '-' {
		i++
		if i < len(data) && data[i] == 'I' {
			p.pos = i
			return nil, p.nonFinite(start, "Infinity")
		}
	}
	if i >= len(data) {
		return nil, p.unexpected(i, "a digit")
	}
	switch c := data[i]; {
	case c == '0':
		i++
		if i < len(data) && isDigit(data[i]) {
			return nil, p.fail(start, CodeSyntax, "number has a leading zero")
		}
	case c >= '1' && c <= '9':
		i++
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return nil, p.unexpected(i, "a digit")
	}
	intEnd := i
	notInt := false
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return nil, p.unexpected(i, "a digit after the decimal point")
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
		notInt = true
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return nil, p.unexpected(i, "a digit in the exponent")
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
		notInt = true
	}
	if notInt {
		return nil, p.fail(start, CodeNotInteger, "number has a fraction or exponent; only integers are allowed")
	}
	p.pos = i
	return numberValue(data[start:intEnd]), nil
}

// smallNumbers are boxed once: counts and small ids dominate real
// documents and boxing each would cost two allocations.
var smallNumbers = func() (t [1000]any) {
	for i := range t {
		t[i] = Number(strconv.Itoa(i))
	}
	return t
}()

func numberValue(text []byte) any {
	switch {
	case len(text) == 1:
		return smallNumbers[text[0]-'0']
	case len(text) == 2 && text[0] == '-' && text[1] == '0':
		return smallNumbers[0]
	case len(text) == 2 && text[0] != '-':
		return smallNumbers[int(text[0]-'0')*10+int(text[1]-'0')]
	case len(text) == 3 && text[0] != '-':
		return smallNumbers[int(text[0]-'0')*100+int(text[1]-'0')*10+int(text[2]-'0')]
	}
	return Number(text)
}

func (p *parser) object(depth int) (any, error) {
	data := p.data
	if depth > MaxDepth {
		return nil, p.fail(p.pos, CodeTooDeep, "nesting deeper than "+strconv.Itoa(MaxDepth))
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(data) && data[p.pos] == '}' {
		p.pos++
		return map[string]any{}, nil
	}
	base := len(p.members)
	for {
		if p.pos >= len(data) || data[p.pos] != '"' {
			return nil, p.unexpected(p.pos, "an object key")
		}
		off := p.pos
		kb, err := p.stringBytes()
		if err != nil {
			return nil, err
		}
		key := p.intern(kb)
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != ':' {
			return nil, p.unexpected(p.pos, "':'")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, member{key: key, val: v, off: off})
		p.skipSpace()
		if p.pos < len(data) {
			if c := data[p.pos]; c == ',' {
				p.pos++
				p.skipSpace()
				continue
			} else if c == '}' {
				p.pos++
				break
			}
		}
		return nil, p.unexpected(p.pos, "',' or '}'")
	}
	ms := p.members[base:]
	m := make(map[string]any, len(ms))
	for i := range ms {
		m[ms[i].key] = ms[i].val
		if len(m) != i+1 {
			return nil, p.fail(ms[i].off, CodeDuplicateKey, "duplicate object key "+strconv.Quote(ms[i].key))
		}
	}
	clear(ms)
	p.members = p.members[:base]
	return m, nil
}

func (p *parser) array(depth int) (any, error) {
	data := p.data
	if depth > MaxDepth {
		return nil, p.fail(p.pos, CodeTooDeep, "nesting deeper than "+strconv.Itoa(MaxDepth))
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(data) && data[p.pos] == ']' {
		p.pos++
		return []any{}, nil
	}
	base := len(p.elems)
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.elems = append(p.elems, v)
		p.skipSpace()
		if p.pos < len(data) {
			if c := data[p.pos]; c == ',' {
				p.pos++
				p.skipSpace()
				continue
			} else if c == ']' {
				p.pos++
				break
			}
		}
		return nil, p.unexpected(p.pos, "',' or ']'")
	}
	es := p.elems[base:]
	out := make([]any, len(es))
	copy(out, es)
	clear(es)
	p.elems = p.elems[:base]
	return out, nil
}

func (p *parser) intern(b []byte) string {
	if len(b) > maxInternLen {
		return string(b)
	}
	if s, ok := p.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if p.keys == nil {
		p.keys = make(map[string]string, 64)
	}
	if len(p.keys) < maxInternCount {
		p.keys[s] = s
	}
	return s
}
