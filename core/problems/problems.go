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
	// TooMany is the last problem of a capped list; its message counts the rest.
	TooMany = "too-many-problems"
)

// MaxProblems caps a List: a hostile document can break one rule per value
// (a 20 MB object of unknown fields once made a 169 MB list). The first
// MaxProblems are kept in the order found, then one TooMany problem counts
// the rest, so the list stays small and still says it is incomplete.
const MaxProblems = 1000

// Problem is one reason a document is rejected.
type Problem struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// more is how many problems a TooMany problem stands for.
	more int
}

func (p Problem) Error() string {
	return fmt.Sprintf("%s: %s: %s", p.Path, p.Code, p.Message)
}

// List collects every problem found; validators keep going after the first.
// It never holds more than MaxProblems problems plus a final TooMany one.
type List []Problem

// Add records a problem; past the cap it is only counted (and its message
// never formatted, which is most of a problem's cost).
func (l *List) Add(path, code, format string, args ...any) {
	if len(*l) >= MaxProblems {
		l.drop(1)
		return
	}
	*l = append(*l, Problem{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
}

// Merge appends another list, under the same cap.
func (l *List) Merge(o List) {
	for _, p := range o {
		switch {
		case p.Code == TooMany && p.more > 0:
			l.drop(p.more)
		case len(*l) >= MaxProblems:
			l.drop(1)
		default:
			*l = append(*l, p)
		}
	}
}

// Full reports whether the list is at its cap, so that a caller about to
// report many problems can count them (Skip) instead of building each one.
func (l List) Full() bool { return len(l) >= MaxProblems }

// Skip counts n problems past the cap without listing them. Below the cap
// it is a mistake (the problems would be lost), so it panics.
func (l *List) Skip(n int) {
	if n <= 0 {
		return
	}
	if !l.Full() {
		panic("problems: Skip below the cap")
	}
	l.drop(n)
}

// Dropped is how many problems the cap left out (0 for a complete list).
func (l List) Dropped() int {
	if n := len(l); n > 0 && l[n-1].Code == TooMany {
		return l[n-1].more
	}
	return 0
}

// Count is how many problems were found, listed or not.
func (l List) Count() int {
	if d := l.Dropped(); d > 0 {
		return len(l) - 1 + d
	}
	return len(l)
}

// drop counts n problems past the cap in the final TooMany problem.
func (l *List) drop(n int) {
	last := len(*l) - 1
	if last < MaxProblems || (*l)[last].Code != TooMany {
		*l = append(*l, Problem{Code: TooMany})
		last++
	}
	p := &(*l)[last]
	p.more += n
	p.Message = strconv.Itoa(p.more) + " more problems are not listed (only the first " + strconv.Itoa(MaxProblems) + " are)"
}

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
