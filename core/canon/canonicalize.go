package canon

import (
	"crypto/sha256"
	"encoding/hex"
)

// Canonicalize parses data strictly and returns its canonical bytes. It
// writes straight from the scanner's tape, never building Values, so it is
// the fast way to canonicalize or hash a document that arrives as bytes.
func Canonicalize(data []byte) ([]byte, error) {
	s := getScanner()
	defer putScanner(s)
	if err := s.scan(data); err != nil {
		return nil, err
	}
	out, _ := s.emit(make([]byte, 0, len(data)), 0)
	return out, nil
}

// HashDocument parses data strictly and returns the lowercase hex SHA-256 of
// its canonical bytes, the digest Hash(Canonicalize(data)) gives. The
// canonical bytes are streamed into the digest in small blocks, never held
// whole, so hashing a large document costs its tape, not a second copy.
func HashDocument(data []byte) (string, error) {
	s := getScanner()
	defer putScanner(s)
	if err := s.scan(data); err != nil {
		return "", err
	}
	d := sha256.New()
	s.sink = d
	buf, _ := s.emit(make([]byte, 0, flushAt+flushAt/2), 0)
	d.Write(buf)
	var sum [sha256.Size]byte
	return hex.EncodeToString(d.Sum(sum[:0])), nil
}

// flush hands a full buffer to the digest when one is streaming; Canonicalize
// has none and keeps everything.
func (s *scanner) flush(buf []byte) []byte {
	if s.sink == nil || len(buf) < flushAt {
		return buf
	}
	s.sink.Write(buf)
	return buf[:0]
}

// emit appends node i canonically and returns the index after its subtree.
func (s *scanner) emit(buf []byte, i int) ([]byte, int) {
	nd := &s.nodes[i]
	switch nd.kind() {
	case kindNull:
		buf = append(buf, "null"...)
	case kindFalse:
		buf = append(buf, "false"...)
	case kindTrue:
		buf = append(buf, "true"...)
	case kindNumber:
		if text := s.src[nd.a:nd.b]; len(text) == 2 && text[0] == '-' && text[1] == '0' {
			buf = append(buf, '0')
		} else {
			buf = append(buf, text...)
		}
	case kindRaw:
		buf = append(buf, '"')
		buf = append(buf, s.src[nd.a:nd.b]...)
		buf = append(buf, '"')
	case kindDecoded:
		buf = appendQuoted(buf, s.dec[nd.a:nd.b])
	case kindArray:
		buf = append(buf, '[')
		j := i + 1
		for k := 0; k < nd.n(); k++ {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf, j = s.emit(buf, j)
			buf = s.flush(buf)
		}
		return append(buf, ']'), int(nd.b)
	case kindObject:
		buf = append(buf, '{')
		for k, key := range s.order[nd.a : int(nd.a)+nd.n()] {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf, _ = s.emit(buf, int(key))
			buf = append(buf, ':')
			buf, _ = s.emit(buf, int(key)+1)
			buf = s.flush(buf)
		}
		return append(buf, '}'), int(nd.b)
	}
	return buf, i + 1
}
