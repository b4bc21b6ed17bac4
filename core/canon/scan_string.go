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

// string scans the string at s.pos (which holds '"') and pushes its node.
// Without escapes the source bytes are already the canonical body (valid
// UTF-8, no controls, no '"' or '\\'), so they are referenced, not copied.
func (s *scanner) string() error {
	start := s.pos + 1
	i, err := s.plainRun(start)
	if err != nil {
		return err
	}
	if i >= len(s.src) {
		return s.fail(s.pos, CodeSyntax, "unterminated string")
	}
	switch c := s.src[i]; {
	case c == '"':
		s.push(kindRaw, start, i)
		s.pos = i + 1
		return nil
	case c == '\\':
		return s.escapedString(start, i)
	default:
		return s.fail(i, CodeSyntax, "raw control character in string")
	}
}

// plainRun returns the end of the run starting at i of bytes that stand for
// themselves inside a string: printable ASCII other than '"' and '\\', and
// valid UTF-8 sequences. It stops at the first other byte or the end.
func (s *scanner) plainRun(i int) (int, error) {
	src := s.src
	for i < len(src) {
		if i+8 <= len(src) {
			m := specialMask(binary.LittleEndian.Uint64(src[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += firstFlagged(m)
		}
		c := src[i]
		if plainByte[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			break
		}
		// Non-ASCII text tends to come in runs; stay here until it ends.
		for i < len(src) && src[i] >= utf8.RuneSelf {
			size := validRuneLen(src, i)
			if size == 0 {
				return i, s.fail(i, CodeInvalidUTF8, "invalid UTF-8 in string")
			}
			i += size
		}
	}
	return i, nil
}

// escapedString continues string from the first backslash at i, decoding
// into s.dec.
func (s *scanner) escapedString(start, i int) error {
	src := s.src
	a := len(s.dec)
	buf := append(s.dec, src[start:i]...)
	for {
		if i >= len(src) {
			return s.fail(start-1, CodeSyntax, "unterminated string")
		}
		switch c := src[i]; {
		case c == '"':
			s.dec = buf
			s.push(kindDecoded, a, len(buf))
			s.pos = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(src) {
				return s.fail(start-1, CodeSyntax, "unterminated string")
			}
			switch e := src[i+1]; e {
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
				r, err := s.unicodeEscape(i)
				if err != nil {
					return err
				}
				if r > 0xffff {
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
				i += 4
			default:
				return s.fail(i, CodeSyntax, "invalid escape sequence")
			}
			i += 2
		case c < 0x20:
			return s.fail(i, CodeSyntax, "raw control character in string")
		default:
			j, err := s.plainRun(i)
			if err != nil {
				return err
			}
			buf = append(buf, src[i:j]...)
			i = j
		}
	}
}

// unicodeEscape reads \uXXXX at i, joining a following low surrogate. A
// result above U+FFFF means two escapes (12 bytes) were consumed. Surrogate
// halves on their own cannot be encoded as UTF-8, so they are refused rather
// than replaced with U+FFFD the way encoding/json does.
func (s *scanner) unicodeEscape(i int) (rune, error) {
	r, ok := hex4(s.src, i+2)
	if !ok {
		return 0, s.fail(i, CodeSyntax, "invalid \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		if r == utf8.RuneError && s.refuseReplacement && string(s.src[i+2:i+6]) == "fffd" {
			return 0, s.fail(i, CodeInvalidUTF8, "a Go string is not valid UTF-8 (encoding/json replaced it with \\ufffd)")
		}
		return r, nil
	}
	if r >= 0xdc00 {
		return 0, s.fail(i, CodeLoneSurrogate, "low surrogate escape without a preceding high surrogate")
	}
	j := i + 6
	if j+1 < len(s.src) && s.src[j] == '\\' && s.src[j+1] == 'u' {
		lo, ok := hex4(s.src, j+2)
		if !ok {
			return 0, s.fail(j, CodeSyntax, "invalid \\u escape")
		}
		if lo >= 0xdc00 && lo <= 0xdfff {
			return utf16.DecodeRune(r, lo), nil
		}
	}
	return 0, s.fail(i, CodeLoneSurrogate, "high surrogate escape without a following low surrogate")
}

func hex4(src []byte, at int) (rune, bool) {
	if at+4 > len(src) {
		return 0, false
	}
	var r rune
	for _, c := range src[at : at+4] {
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

// validRuneLen returns the length of the valid UTF-8 sequence starting at
// the non-ASCII byte src[i], or 0 if it is invalid (overlong, surrogate,
// above U+10FFFF, truncated). It is utf8.DecodeRune's acceptance rule
// without building the rune, which this hot loop does not need.
func validRuneLen(src []byte, i int) int {
	c := src[i]
	n := len(src) - i
	switch {
	case c < 0xc2:
		return 0
	case c < 0xe0:
		if n >= 2 && src[i+1]&0xc0 == 0x80 {
			return 2
		}
	case c < 0xf0:
		if n < 3 || src[i+2]&0xc0 != 0x80 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xbf)
		if c == 0xe0 {
			lo = 0xa0
		} else if c == 0xed {
			hi = 0x9f
		}
		if b := src[i+1]; b >= lo && b <= hi {
			return 3
		}
	case c < 0xf5:
		if n < 4 || src[i+2]&0xc0 != 0x80 || src[i+3]&0xc0 != 0x80 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xbf)
		if c == 0xf0 {
			lo = 0x90
		} else if c == 0xf4 {
			hi = 0x8f
		}
		if b := src[i+1]; b >= lo && b <= hi {
			return 4
		}
	}
	return 0
}
