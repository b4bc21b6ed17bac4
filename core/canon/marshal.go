package canon

import (
	"bytes"
	"encoding/json"
)

// Marshal returns the canonical bytes of any Go value, including structs with
// json tags. Its meaning is defined as encoding/json (HTML escaping off),
// then Parse, then Encode, so struct tags, omitempty and json.Marshaler all
// behave as usual and the result obeys every Parse rule (an integral float
// such as 3.0 becomes 3, a fractional one is an error).
//
// Values Encode accepts take a direct path with identical output; anything
// Encode refuses is retried through encoding/json. Like encoding/json, that
// path turns invalid UTF-8 in Go strings into U+FFFD; call Encode to have it
// refused instead.
func Marshal(v any) ([]byte, error) {
	if out, err := Encode(v); err == nil {
		return out, nil
	}
	parsed, err := viaEncodingJSON(v)
	if err != nil {
		return nil, err
	}
	return Encode(parsed)
}

func viaEncodingJSON(v any) (any, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return Parse(b.Bytes())
}
