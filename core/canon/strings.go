package canon

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// plainByte marks bytes that can be copied from a JSON string unchanged:
// printable ASCII other than '"' and '\\'. Everything else takes the slow path.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// stringBytes decodes the string starting at p.pos (which holds '"'). The
// result aliases data when there are no escapes, p.scratch otherwise, and is
// only valid until the next call.
func (p *parser) stringBytes() ([]byte, error) {
	data := p.data
	start := p.pos + 1
	i := start
	for {
		for i+8 <= len(data) && !specialWord(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
		}
		for i < len(data) && plainByte[data[i]] {
			i++
		}
		if i >= len(data) {
			return nil, p.fail(p.pos, CodeSyntax, "unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			return data[start:i], nil
		case c == '\\':
			return p.escapedString(start, i)
		case c < 0x20:
			return nil, p.fail(i, CodeSyntax, "raw control character in string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, p.fail(i, CodeInvalidUTF8, "invalid UTF-8 in string")
			}
			i += size
		}
	}
}

// escapedString continues stringBytes from the first backslash at i.
func (p *parser) escapedString(start, i int) ([]byte, error) {
	data := p.data
	buf := append(p.scratch[:0], data[start:i]...)
	for {
		if i >= len(data) {
			return nil, p.fail(start-1, CodeSyntax, "unterminated string")
		}
		c := data[i]
		if plainByte[c] {
			j := i + 1
			for j+8 <= len(data) && !specialWord(binary.LittleEndian.Uint64(data[j:])) {
				j += 8
			}
			for j < len(data) && plainByte[data[j]] {
				j++
			}
			buf = append(buf, data[i:j]...)
			i = j
			continue
		}
		switch {
		case c == '"':
			p.scratch = buf
			p.pos = i + 1
			return buf, nil
		case c == '\\':
			if i+1 >= len(data) {
				return nil, p.fail(start-1, CodeSyntax, "unterminated string")
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := p.unicodeEscape(i)
				if err != nil {
					return nil, err
				}
				if r > 0xffff {
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
				i += 6
				continue
			default:
				return nil, p.fail(i, CodeSyntax, "invalid escape sequence")
			}
			i += 2
		case c < 0x20:
			return nil, p.fail(i, CodeSyntax, "raw control character in string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, p.fail(i, CodeInvalidUTF8, "invalid UTF-8 in string")
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		}
	}
}

// unicodeEscape reads \uXXXX at i, joining a following low surrogate. A
// result above U+FFFF means two escapes (12 bytes) were consumed. Surrogate
// halves on their own cannot be encoded as UTF-8, so they are refused rather
// than replaced with U+FFFD the way encoding/json does.
func (p *parser) unicodeEscape(i int) (rune, error) {
	r, ok := hex4(p.data, i+2)
	if !ok {
		return 0, p.fail(i, CodeSyntax, "invalid \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	if r >= 0xdc00 {
		return 0, p.fail(i, CodeLoneSurrogate, "low surrogate escape without a preceding high surrogate")
	}
	j := i + 6
	if j+1 < len(p.data) && p.data[j] == '\\' && p.data[j+1] == 'u' {
		lo, ok := hex4(p.data, j+2)
		if !ok {
			return 0, p.fail(j, CodeSyntax, "invalid \\u escape")
		}
		if lo >= 0xdc00 && lo <= 0xdfff {
			return utf16.DecodeRune(r, lo), nil
		}
	}
	return 0, p.fail(i, CodeLoneSurrogate, "high surrogate escape without a following low surrogate")
}

func hex4(data []byte, at int) (rune, bool) {
	if at+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[at : at+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
