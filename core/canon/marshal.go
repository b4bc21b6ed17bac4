package canon

import (
	"bytes"
	"encoding/json"
)

// Marshal returns the canonical bytes of any Go value, including structs with
// json tags. Its meaning is encoding/json (HTML escaping off) followed by
// Canonicalize, so struct tags, omitempty and json.Marshaler behave as usual
// and the result obeys every Parse rule: an integral float such as 3.0
// becomes 3, a fractional one is an error, nesting past MaxDepth is an error.
//
// One deliberate difference from encoding/json: a Go string holding invalid
// UTF-8 is an error rather than silently becoming U+FFFD, because a repaired
// path or title would no longer name what it was taken from.
//
// Values Encode accepts take a direct path with identical output.
func Marshal(v any) ([]byte, error) {
	if out, err := Encode(v); err == nil {
		return out, nil
	}
	s := getScanner()
	defer putScanner(s)
	if err := s.scanGo(v); err != nil {
		return nil, err
	}
	out, _ := s.emit(nil, 0)
	return out, nil
}

// scanGo encodes v with encoding/json and scans the result. encoding/json
// (v1) writes the escape \ufffd only where it replaced invalid UTF-8 (a real
// U+FFFD is written literally), so that escape is refused here.
func (s *scanner) scanGo(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	s.refuseReplacement = true
	return s.scan(b.Bytes())
}
