package local

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/gitx"
)

// StagedDiffSHA256 hashes what is staged in the index against head in the
// same normalized form as diff_sha256 (diffValue): the executor stages the
// approved paths and must find exactly the approved change in the index,
// nothing more and nothing less, before it commits.
func StagedDiffSHA256(ctx context.Context, r *gitx.Runner, root, head string) (string, error) {
	out, err := r.Run(ctx, root, "diff-index", "--cached", "--raw", "-z", "--no-renames", "--full-index", head, "--")
	if err != nil {
		return "", err
	}
	changes, err := parseRawZ(out)
	if err != nil {
		return "", err
	}
	return mustHash(diffValue(head, changes)), nil
}

// parseRawZ reads `--raw -z` records: ":oldmode newmode oldsha newsha X\0path\0".
func parseRawZ(out []byte) ([]Change, error) {
	var changes []Change
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 || len(out) == 0 || out[0] != ':' {
			return nil, fmt.Errorf("local: malformed diff-index record %q", clipBytes(out))
		}
		f := strings.Fields(string(out[1:i]))
		out = out[i+1:]
		j := bytes.IndexByte(out, 0)
		if len(f) != 5 || j < 0 {
			return nil, fmt.Errorf("local: malformed diff-index record %q", f)
		}
		path := append([]byte{}, out[:j]...)
		out = out[j+1:]
		c := Change{Path: path}
		if f[0] != noMode {
			c.OldMode, c.OldBlob = f[0], f[2]
		}
		if f[1] != noMode {
			c.NewMode, c.NewBlob = f[1], f[3]
		}
		changes = append(changes, c)
	}
	return settle(ptrs(changes)), nil
}

func ptrs(cs []Change) []*Change {
	out := make([]*Change, len(cs))
	for i := range cs {
		out[i] = &cs[i]
	}
	return out
}

func clipBytes(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}
