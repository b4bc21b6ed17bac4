package canon

import (
	"reflect"
	"strings"
)

// EncodeError reports a value Encode cannot represent canonically. Path is
// the JSON pointer (RFC 6901) of the offending value within the input, so a
// caller building a large manifest can see which field is wrong.
type EncodeError struct {
	Path string
	Msg  string
}

func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "canon: " + e.Msg
	}
	return "canon: " + e.Path + ": " + e.Msg
}

// under prefixes the path while the error unwinds, so the success path pays
// nothing for path tracking.
func (e *EncodeError) under(token string) *EncodeError {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	e.Path = "/" + token + e.Path
	return e
}

// typeName is only called on the error path, so reflection here keeps the
// hot path free of it.
func typeName(v any) string {
	return reflect.TypeOf(v).String()
}
