package canon

import "errors"

// Number is an integer kept as its canonical decimal text so values beyond
// int64 survive a round trip exactly, as Python ints do. Canonical means
// -?(0|[1-9][0-9]*) and never "-0".
type Number string

var errBadNumber = errors.New("canon: Number is not a canonical decimal integer")

// MarshalJSON lets encoding/json (and so Marshal's struct path) emit a
// Number as a JSON number instead of a quoted string.
func (n Number) MarshalJSON() ([]byte, error) {
	s, ok := canonicalInteger(string(n))
	if !ok {
		return nil, errBadNumber
	}
	return []byte(s), nil
}

// canonicalInteger checks integer text and folds "-0" to "0", the only
// non-canonical spelling strict JSON integer grammar allows.
func canonicalInteger(s string) (string, bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return "", false
	}
	if s[i] == '0' {
		if i+1 != len(s) {
			return "", false
		}
		return "0", true
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	return s, true
}
