// Package problems holds the one error shape every validator reports:
// a JSON-pointer path, a stable machine code and a human message.
package problems

import (
	"fmt"
	"strconv"
	"strings"
)

// Stable codes. Scripts match on these; never rename one.
const (
	MissingField     = "missing-field"
	UnknownField     = "unknown-field"
	NullNotAllowed   = "null-not-allowed"
	WrongType        = "wrong-type"
	InvalidValue     = "invalid-value"
	HashMismatch     = "hash-mismatch"
	OperationOrder   = "operation-order"
	NotSorted        = "not-sorted"
	Duplicate        = "duplicate"
	Placeholder      = "placeholder"
	Template         = "template"
	Drift            = "drift"
	Mismatch         = "mismatch"
	Policy           = "policy"
	Syntax           = "syntax"
	Inconsistent     = "inconsistent"
	OutOfRange       = "out-of-range"
	InvalidTimestamp = "invalid-timestamp"
)

// Problem is one reason a document is rejected.
type Problem struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (p Problem) Error() string {
	return fmt.Sprintf("%s: %s: %s", p.Path, p.Code, p.Message)
}

// List collects every problem found; validators keep going after the first.
type List []Problem

// Add records a problem.
func (l *List) Add(path, code, format string, args ...any) {
	*l = append(*l, Problem{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
}

// Merge appends another list.
func (l *List) Merge(o List) { *l = append(*l, o...) }

// Empty reports whether nothing was found.
func (l List) Empty() bool { return len(l) == 0 }

// Has reports whether any problem carries code (and, when path is non-empty, that path).
func (l List) Has(path, code string) bool {
	for _, p := range l {
		if p.Code == code && (path == "" || p.Path == path) {
			return true
		}
	}
	return false
}

func (l List) Error() string {
	parts := make([]string, len(l))
	for i, p := range l {
		parts[i] = p.Error()
	}
	return strings.Join(parts, "; ")
}

// Join builds a JSON pointer from a parent path and a key or index,
// escaping "~" and "/" as RFC 6901 requires.
func Join(parent string, key any) string {
	switch k := key.(type) {
	case int:
		return parent + "/" + strconv.Itoa(k)
	case string:
		k = strings.ReplaceAll(k, "~", "~0")
		k = strings.ReplaceAll(k, "/", "~1")
		return parent + "/" + k
	default:
		return parent + "/" + fmt.Sprint(k)
	}
}
