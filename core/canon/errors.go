package canon

import "strconv"

// Stable SyntaxError codes. Callers and scripts match on these; never rename one.
const (
	CodeEmptyInput    = "empty-input"
	CodeInvalidUTF8   = "invalid-utf8"
	CodeLoneSurrogate = "lone-surrogate"
	CodeDuplicateKey  = "duplicate-key"
	CodeNotInteger    = "not-integer"
	CodeNaNInfinity   = "nan-infinity"
	CodeTrailingData  = "trailing-data"
	CodeTooDeep       = "too-deep"
	CodeSyntax        = "syntax"
	// CodeTooManyValues: more values than Parse's budget (MaxValues), or
	// more members than one container can hold.
	CodeTooManyValues = "too-many-values"
)

// SyntaxError reports why Parse refused its input. Offset is the byte offset
// of the offending token so a human can find it in a large manifest.
type SyntaxError struct {
	Offset int64
	Code   string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "canon: " + e.Msg + " at byte offset " + strconv.FormatInt(e.Offset, 10) + " (" + e.Code + ")"
}
