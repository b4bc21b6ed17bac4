package fixer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// Version names the contract the loop and the fixers speak.
const Version = "fixer-contract-v1"

// MaxInputBytes bounds the input file a fixer reads.
const MaxInputBytes = 8 << 20

// Thread is one actionable Codex thread of the round.
type Thread struct {
	ThreadID  string  `json:"thread_id"`
	Path      string  `json:"path"`
	Line      *int    `json:"line"`
	StartLine *int    `json:"start_line"`
	Priority  *string `json:"priority"`
	Title     string  `json:"title"`
	Body      string  `json:"body"`
}

// ErrCode is the stable code of every input error.
const ErrCode = "fixer-input-invalid"

// InputError is a contract violation at a JSON path ("$[1].line").
type InputError struct {
	Path string
	Msg  string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s: %s: %s", ErrCode, e.Path, e.Msg) }

// Encode writes threads as the contract's file, sorted by thread_id.
func Encode(w io.Writer, threads []Thread) error {
	sorted := slices.Clone(threads)
	slices.SortFunc(sorted, func(a, b Thread) int { return strings.Compare(a.ThreadID, b.ThreadID) })
	if sorted == nil {
		sorted = []Thread{}
	}
	if err := Validate(sorted); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sorted)
}

// Decode reads and validates a contract file.
func Decode(r io.Reader) ([]Thread, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInputBytes {
		return nil, &InputError{Path: "$", Msg: fmt.Sprintf("larger than %d bytes", MaxInputBytes)}
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		return nil, &InputError{Path: "$", Msg: "want a JSON array of thread objects"}
	}
	out := make([]Thread, len(raw))
	for i, obj := range raw {
		at := fmt.Sprintf("$[%d]", i)
		if obj == nil {
			return nil, &InputError{Path: at, Msg: "want an object"}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		t := &out[i]
		for _, k := range keys {
			v, fp := obj[k], at+"."+k
			var err error
			switch k {
			case "thread_id":
				err = str(v, &t.ThreadID)
			case "path":
				err = str(v, &t.Path)
			case "title":
				err = str(v, &t.Title)
			case "body":
				err = str(v, &t.Body)
			case "line":
				t.Line, err = optLine(v)
			case "start_line":
				t.StartLine, err = optLine(v)
			case "priority":
				t.Priority, err = optPriority(v)
			default:
				err = fmt.Errorf("unknown field (contract %s)", Version)
			}
			if err != nil {
				return nil, &InputError{Path: fp, Msg: err.Error()}
			}
		}
		for _, req := range []string{"thread_id", "path", "title", "body"} {
			if _, ok := obj[req]; !ok {
				return nil, &InputError{Path: at + "." + req, Msg: "required"}
			}
		}
	}
	if err := Validate(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Validate checks what types alone do not: non-empty ids, clean paths,
// unique ids, start_line not after line.
func Validate(threads []Thread) error {
	seen := map[string]bool{}
	for i, t := range threads {
		at := fmt.Sprintf("$[%d]", i)
		if t.ThreadID == "" {
			return &InputError{Path: at + ".thread_id", Msg: "empty"}
		}
		if seen[t.ThreadID] {
			return &InputError{Path: at + ".thread_id", Msg: fmt.Sprintf("duplicate %q", t.ThreadID)}
		}
		seen[t.ThreadID] = true
		if err := CheckPath(t.Path); err != nil {
			return &InputError{Path: at + ".path", Msg: err.Error()}
		}
		for _, l := range []struct {
			name string
			v    *int
		}{{"line", t.Line}, {"start_line", t.StartLine}} {
			if l.v != nil && *l.v < 1 {
				return &InputError{Path: at + "." + l.name, Msg: "want a positive integer or null"}
			}
		}
		if t.StartLine != nil && (t.Line == nil || *t.StartLine > *t.Line) {
			return &InputError{Path: at + ".start_line", Msg: "after line, or without one"}
		}
		if t.Priority != nil && !validPriority(*t.Priority) {
			return &InputError{Path: at + ".priority", Msg: `want "P0".."P3" or null`}
		}
	}
	return nil
}

// CheckPath accepts a normalized, repository-relative slash path outside
// .git.
func CheckPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty")
	case strings.ContainsAny(p, "\\\x00"):
		return fmt.Errorf("%q: backslash or NUL", p)
	case path.IsAbs(p):
		return fmt.Errorf("%q: absolute", p)
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q: not a normalized path inside the checkout", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.EqualFold(seg, ".git") {
			return fmt.Errorf("%q: inside .git", p)
		}
	}
	return nil
}

func validPriority(p string) bool { return len(p) == 2 && p[0] == 'P' && p[1] >= '0' && p[1] <= '3' }

func str(v json.RawMessage, dst *string) error {
	if err := json.Unmarshal(v, dst); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return fmt.Errorf("want a string")
	}
	return nil
}

func optLine(v json.RawMessage) (*int, error) {
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, nil
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil {
		return nil, fmt.Errorf("want a positive integer or null")
	}
	return &n, nil
}

func optPriority(v json.RawMessage) (*string, error) {
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, fmt.Errorf(`want "P0".."P3" or null`)
	}
	return &s, nil
}
