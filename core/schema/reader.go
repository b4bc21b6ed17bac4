package schema

import (
	"math/big"
	"regexp"
	"slices"
	"time"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// obj reads one JSON object field by field, recording every problem with its
// path, and finally reports fields nobody asked for. Exact decoding is what
// lets "an omitted or additional value invalidates the batch" hold.
type obj struct {
	m    map[string]any
	path string
	errs *problems.List
	// seen lists the keys asked for. A slice, not a map: objects have a few
	// dozen keys and a large state decodes thousands of objects.
	seen []string
}

// newObj checks that v is an object; on failure it records the problem and
// returns nil, and every accessor on a nil *obj returns the zero value.
func newObj(v any, path string, errs *problems.List) *obj {
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			errs.Add(path, problems.NullNotAllowed, "must be an object, not null")
		} else {
			errs.Add(path, problems.WrongType, "must be an object, got %s", typeName(v))
		}
		return nil
	}
	return &obj{m: m, path: path, errs: errs, seen: make([]string, 0, len(m))}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case canon.Number:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return "unknown"
	}
}

func (o *obj) p(key string) string { return problems.Join(o.path, key) }

// get returns the raw value and whether it is present and non-null.
func (o *obj) get(key string, nullable bool) (any, bool) {
	if o == nil {
		return nil, false
	}
	o.seen = append(o.seen, key)
	v, ok := o.m[key]
	if !ok {
		o.errs.Add(o.p(key), problems.MissingField, "required field %q is missing", key)
		return nil, false
	}
	if v == nil {
		if !nullable {
			o.errs.Add(o.p(key), problems.NullNotAllowed, "%q must not be null", key)
		}
		return nil, false
	}
	return v, true
}

// Raw returns the field's raw value (for hashing sub-documents) and marks it read.
func (o *obj) raw(key string) any {
	if o == nil {
		return nil
	}
	o.seen = append(o.seen, key)
	return o.m[key]
}

func (o *obj) done() {
	if o == nil {
		return
	}
	// Every field read: the common case, decided without sorting. Keys
	// asked for are distinct, so counting those present settles it.
	present := 0
	for _, k := range o.seen {
		if _, ok := o.m[k]; ok {
			present++
		}
	}
	if present == len(o.m) && !o.askedTwice() {
		return
	}
	keys := make([]string, 0, max(len(o.m)-present, 0))
	for k := range o.m {
		if !slices.Contains(o.seen, k) {
			keys = append(keys, k)
		}
	}
	// A list already at its cap only counts them: a hostile object can
	// carry millions of unknown fields.
	if o.errs.Full() {
		o.errs.Skip(len(keys))
		return
	}
	// Sorted so the same document always yields the same problem list;
	// map order would make CLI output and tests flap.
	slices.Sort(keys)
	for _, k := range keys {
		if o.errs.Full() {
			o.errs.Skip(1)
			continue
		}
		o.errs.Add(o.p(k), problems.UnknownField, "field %q is not part of the schema", k)
	}
}

// askedTwice guards the counting shortcut in done against a decoder that
// reads one key twice.
func (o *obj) askedTwice() bool {
	for i, k := range o.seen {
		if slices.Contains(o.seen[i+1:], k) {
			return true
		}
	}
	return false
}

func (o *obj) wrong(key, want string, v any) {
	o.errs.Add(o.p(key), problems.WrongType, "must be %s, got %s", want, typeName(v))
}

func (o *obj) str(key string) string {
	v, ok := o.get(key, false)
	if !ok {
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		o.wrong(key, "a string", v)
	}
	return s
}

func (o *obj) optStr(key string) *string {
	v, ok := o.get(key, true)
	if !ok {
		return nil
	}
	s, isStr := v.(string)
	if !isStr {
		o.wrong(key, "a string or null", v)
		return nil
	}
	return &s
}

func (o *obj) boolean(key string) bool {
	v, ok := o.get(key, false)
	if !ok {
		return false
	}
	b, isBool := v.(bool)
	if !isBool {
		o.wrong(key, "a boolean", v)
	}
	return b
}

func (o *obj) optBool(key string) *bool {
	v, ok := o.get(key, true)
	if !ok {
		return nil
	}
	b, isBool := v.(bool)
	if !isBool {
		o.wrong(key, "a boolean or null", v)
		return nil
	}
	return &b
}

func (o *obj) intAt(key string, v any) (int64, bool) {
	n, isNum := v.(canon.Number)
	if !isNum {
		o.wrong(key, "an integer", v)
		return 0, false
	}
	b, ok := new(big.Int).SetString(string(n), 10)
	if !ok || !b.IsInt64() {
		o.errs.Add(o.p(key), problems.OutOfRange, "integer %s is out of range", n)
		return 0, false
	}
	return b.Int64(), true
}

// nonNeg reads an integer >= 0.
func (o *obj) nonNeg(key string) int64 {
	v, ok := o.get(key, false)
	if !ok {
		return 0
	}
	n, ok := o.intAt(key, v)
	if ok && n < 0 {
		o.errs.Add(o.p(key), problems.OutOfRange, "must be >= 0, got %d", n)
	}
	return n
}

// id reads a GitHub id: a positive integer (PROTOCOL §3).
func (o *obj) id(key string) int64 {
	v, ok := o.get(key, false)
	if !ok {
		return 0
	}
	return o.checkID(key, v)
}

func (o *obj) optID(key string) *int64 {
	v, ok := o.get(key, true)
	if !ok {
		return nil
	}
	n := o.checkID(key, v)
	return &n
}

func (o *obj) checkID(key string, v any) int64 {
	n, ok := o.intAt(key, v)
	if ok && n <= 0 {
		o.errs.Add(o.p(key), problems.OutOfRange, "a GitHub id must be a positive integer, got %d", n)
	}
	return n
}

// exactInt reads an integer that must equal want (version fields).
func (o *obj) exactInt(key string, want int64) int64 {
	v, ok := o.get(key, false)
	if !ok {
		return 0
	}
	n, ok := o.intAt(key, v)
	if ok && n != want {
		o.errs.Add(o.p(key), problems.Policy, "must be %d, got %d", want, n)
	}
	return n
}

var (
	reSHA1   = regexp.MustCompile(`^[0-9a-f]{40}$`)
	reSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)
	reRunID  = regexp.MustCompile(`^[0-9a-f]{32}$`)
	reDecID  = regexp.MustCompile(`^[1-9][0-9]*$`)
)

// matches is re.MatchString with hand-written fast paths for the hex and
// decimal forms, which a large state checks thousands of times per decode.
func matches(re *regexp.Regexp, s string) bool {
	switch re {
	case reSHA1:
		return isLowerHex(s, 40)
	case reSHA256:
		return isLowerHex(s, 64)
	case reRunID:
		return isLowerHex(s, 32)
	case reDecID:
		if s == "" || s[0] == '0' {
			return false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	return re.MatchString(s)
}

var lowerHex = func() (t [256]bool) {
	for _, c := range "0123456789abcdef" {
		t[c] = true
	}
	return t
}()

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !lowerHex[s[i]] {
			return false
		}
	}
	return true
}

func (o *obj) pattern(key string, re *regexp.Regexp, what string) string {
	s := o.str(key)
	if o != nil {
		if v, ok := o.m[key].(string); ok && !matches(re, v) {
			o.errs.Add(o.p(key), problems.InvalidValue, "must be %s, got %q", what, clip(v))
		}
	}
	return s
}

func (o *obj) optPattern(key string, re *regexp.Regexp, what string) *string {
	s := o.optStr(key)
	if s != nil && !matches(re, *s) {
		o.errs.Add(o.p(key), problems.InvalidValue, "must be %s or null, got %q", what, clip(*s))
	}
	return s
}

func (o *obj) sha1(key string) string { return o.pattern(key, reSHA1, "a 40-hex lowercase SHA") }
func (o *obj) sha256(key string) string {
	return o.pattern(key, reSHA256, "a 64-hex lowercase SHA-256")
}
func (o *obj) runID(key string) string { return o.pattern(key, reRunID, "32 lowercase hex") }
func (o *obj) optSHA1(key string) *string {
	return o.optPattern(key, reSHA1, "a 40-hex lowercase SHA")
}
func (o *obj) optSHA256(key string) *string {
	return o.optPattern(key, reSHA256, "a 64-hex lowercase SHA-256")
}

func (o *obj) enum(key string, allowed ...string) string {
	s := o.str(key)
	if o == nil {
		return s
	}
	v, present := o.m[key]
	if !present {
		return s
	}
	if _, isStr := v.(string); !isStr {
		return s
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	o.errs.Add(o.p(key), problems.InvalidValue, "must be one of %v, got %q", allowed, clip(s))
	return s
}

// timestamp reads an ISO-8601 timestamp with a timezone.
func (o *obj) timestamp(key string) string {
	s := o.str(key)
	if o == nil {
		return s
	}
	if v, ok := o.m[key].(string); ok {
		checkTimestamp(o.errs, o.p(key), v)
	}
	return s
}

func (o *obj) optTimestamp(key string) *string {
	s := o.optStr(key)
	if s != nil {
		checkTimestamp(o.errs, o.p(key), *s)
	}
	return s
}

func checkTimestamp(errs *problems.List, path, s string) {
	if _, err := ParseTime(s); err != nil {
		errs.Add(path, problems.InvalidTimestamp, "must be an ISO-8601 timestamp with a timezone, got %q", clip(s))
	}
}

// ParseTime parses an ISO-8601 timestamp that carries a timezone.
func ParseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, s)
}

// FormatTime writes the product's own timestamp form: UTC, second precision.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// IsProductTime reports whether s is exactly in the product's own form.
func IsProductTime(s string) bool {
	t, err := time.Parse("2006-01-02T15:04:05Z", s)
	return err == nil && FormatTime(t) == s
}

// array reads a list and calls each for every element.
func (o *obj) array(key string, each func(v any, path string)) bool {
	v, ok := o.get(key, false)
	if !ok {
		return false
	}
	a, isArr := v.([]any)
	if !isArr {
		o.wrong(key, "an array", v)
		return false
	}
	base := o.p(key)
	for i, e := range a {
		each(e, problems.Join(base, i))
	}
	return true
}

func (o *obj) strings(key string) []string {
	out := []string{}
	o.array(key, func(v any, path string) {
		s, ok := v.(string)
		if !ok {
			o.errs.Add(path, problems.WrongType, "must be a string, got %s", typeName(v))
			return
		}
		out = append(out, s)
	})
	return out
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
