package gitx

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SplitZ splits git -z output into its NUL-terminated records. Output that
// does not end in NUL is truncated or not -z output, and is an error rather
// than a silently dropped last path.
func SplitZ(out []byte) ([][]byte, error) {
	if len(out) == 0 {
		return nil, nil
	}
	if out[len(out)-1] != 0 {
		return nil, fmt.Errorf("gitx: -z output does not end in NUL (%d bytes)", len(out))
	}
	recs := bytes.Split(out[:len(out)-1], []byte{0})
	return recs, nil
}

// StatusEntry is one record of `git status --porcelain=v2 -z`. Path and
// OrigPath are raw bytes exactly as git printed them (no quoting in -z mode).
type StatusEntry struct {
	// Kind is '1' (changed), '2' (renamed or copied), 'u' (unmerged),
	// '?' (untracked), '!' (ignored) or '#' (header).
	Kind byte
	// Fields are the space-separated fields between Kind and the path, in
	// git's order: for '1' XY sub mH mI mW hH hI; for '2' the same plus
	// Xscore; for 'u' XY sub m1 m2 m3 mW h1 h2 h3; none for '?' and '!'.
	// For '#' the single field is the header text.
	Fields   []string
	Path     []byte
	OrigPath []byte // only for '2'
}

// XY is the two-letter index/worktree state of a '1', '2' or 'u' entry.
func (e StatusEntry) XY() string {
	if len(e.Fields) == 0 || e.Kind == '#' {
		return ""
	}
	return e.Fields[0]
}

var statusFieldCount = map[byte]int{'1': 7, '2': 8, 'u': 9, '?': 0, '!': 0}

// ParseStatusV2 parses `git status --porcelain=v2 -z` output.
func ParseStatusV2(out []byte) ([]StatusEntry, error) {
	recs, err := SplitZ(out)
	if err != nil {
		return nil, err
	}
	var entries []StatusEntry
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if len(rec) < 2 || rec[1] != ' ' {
			return nil, fmt.Errorf("gitx: malformed status record %q", rec)
		}
		kind := rec[0]
		if kind == '#' {
			entries = append(entries, StatusEntry{Kind: '#', Fields: []string{string(rec[2:])}})
			continue
		}
		n, ok := statusFieldCount[kind]
		if !ok {
			return nil, fmt.Errorf("gitx: unknown status record kind %q", kind)
		}
		rest := rec[2:]
		fields := make([]string, 0, n)
		for range n {
			sp := bytes.IndexByte(rest, ' ')
			if sp <= 0 {
				return nil, fmt.Errorf("gitx: status record %q has too few fields", rec)
			}
			fields = append(fields, string(rest[:sp]))
			rest = rest[sp+1:]
		}
		if len(rest) == 0 {
			return nil, fmt.Errorf("gitx: status record %q has no path", rec)
		}
		e := StatusEntry{Kind: kind, Fields: fields, Path: bytes.Clone(rest)}
		if kind == '2' {
			// In -z mode the original path is the following record.
			if i+1 >= len(recs) {
				return nil, fmt.Errorf("gitx: rename record %q lacks its original path", rec)
			}
			i++
			e.OrigPath = bytes.Clone(recs[i])
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// PathString is how a repository path enters a manifest: the manifest's
// paths are JSON strings, and JSON can only carry Unicode, so a name that is
// not valid UTF-8 is refused with its bytes shown escaped. Escaping it
// instead would make the approved path differ from the staged one.
func PathString(p []byte) (string, error) {
	if !utf8.Valid(p) {
		return "", &NonUTF8PathError{Path: bytes.Clone(p)}
	}
	return string(p), nil
}

// NonUTF8PathError reports a path that cannot be represented in a manifest.
type NonUTF8PathError struct{ Path []byte }

func (e *NonUTF8PathError) Error() string {
	return fmt.Sprintf("path %s is not valid UTF-8; manifests carry paths as JSON strings, so rename it or leave it unchanged", strconv.QuoteToASCII(string(e.Path)))
}

// BytesValue is how raw bytes (paths, config values, symlink targets) appear
// inside a normalized observation that is only hashed: the string itself when
// it is valid UTF-8, otherwise {"hex": "<lowercase hex>"}. The two shapes have
// different JSON types, so the encoding stays injective.
func BytesValue(b []byte) any {
	if utf8.Valid(b) {
		return string(b)
	}
	return map[string]any{"hex": hex.EncodeToString(b)}
}

// CQuote quotes b the way git's unquote_c_style reads it (for --stdin-paths
// style inputs that are line-based): every path, whatever its bytes
// (newlines, carriage returns, quotes, non-UTF-8), round-trips exactly.
func CQuote(b []byte) string {
	var s strings.Builder
	s.Grow(len(b) + 2)
	s.WriteByte('"')
	for _, c := range b {
		switch c {
		case '"':
			s.WriteString(`\"`)
		case '\\':
			s.WriteString(`\\`)
		case '\n':
			s.WriteString(`\n`)
		case '\t':
			s.WriteString(`\t`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&s, `\%03o`, c)
			} else {
				s.WriteByte(c)
			}
		}
	}
	s.WriteByte('"')
	return s.String()
}
