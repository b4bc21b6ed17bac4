package canon

const hexDigits = "0123456789abcdef"

// escapeByte marks the ASCII bytes Python's ensure_ascii=False encoder
// escapes: '"', '\\' and everything below U+0020. DEL, '<', '>', '&' and all
// non-ASCII (U+2028/U+2029 included) stay literal.
var escapeByte = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

// appendQuoted appends s as a canonical JSON string. s must be valid UTF-8;
// callers check that first (or produced s themselves).
func appendQuoted[T string | []byte](buf []byte, s T) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			m := escapeMask(load64(s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += firstFlagged(m)
			break
		}
		for i < len(s) && !escapeByte[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		buf = append(buf, s[start:i]...)
		switch c {
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
