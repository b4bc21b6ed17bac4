package sanitize

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/testutil"
)

// GitHub caps a comment body at 65,536 characters; this is the largest
// single string a report sanitizes.
var body = strings.Repeat("line with `code`, é, 漢字 and \x1b[1mbold\x1b[0m\n", 1500)

func BenchmarkTextCommentBody(b *testing.B) {
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Text(body)
	}
}

func BenchmarkLineHostile(b *testing.B) {
	s := testutil.Hostile("t") + testutil.Long(10000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Line(s, 80)
	}
}
