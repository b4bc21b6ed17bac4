package canon

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

// emit appends node i canonically and returns the index after its subtree.
func (s *scanner) emit(buf []byte, i int) ([]byte, int) {
	nd := &s.nodes[i]
	switch nd.kind {
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
		for k := int32(0); k < nd.n; k++ {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf, j = s.emit(buf, j)
		}
		return append(buf, ']'), nd.b
	case kindObject:
		buf = append(buf, '{')
		for k, key := range s.order[nd.a : nd.a+int(nd.n)] {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf, _ = s.emit(buf, int(key))
			buf = append(buf, ':')
			buf, _ = s.emit(buf, int(key)+1)
		}
		return append(buf, '}'), nd.b
	}
	return buf, i + 1
}
