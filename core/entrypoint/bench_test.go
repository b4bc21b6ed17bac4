package entrypoint_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/entrypoint"
)

// Hostile-size documents of issue 12 (break 4), about 10 MB each: an array
// of strings, an array of integers and one wide object. scripts/bench_rss.sh
// measures the same shapes' peak RSS through the binary.
func benchDocs() map[string][]byte {
	const size = 10 << 20
	build := func(open, close byte, item func(i int) string) []byte {
		var b strings.Builder
		b.Grow(size + 64)
		b.WriteByte(open)
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item(i))
		}
		b.WriteByte(close)
		return []byte(b.String())
	}
	return map[string][]byte{
		"strings":  build('[', ']', func(i int) string { return `"s` + strconv.Itoa(100000000000000+i) + `"` }),
		"integers": build('[', ']', func(i int) string { return strconv.Itoa(i * 7919 % 100000) }),
		"object":   build('{', '}', func(i int) string { return `"k` + strconv.Itoa(1000000000+i) + `":` + strconv.Itoa(i%1000) }),
	}
}

func BenchmarkEvaluateLarge(b *testing.B) {
	for _, name := range []string{"strings", "integers", "object"} {
		doc := benchDocs()[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, code := entrypoint.Run(entrypoint.KindState, doc); code != entrypoint.ExitInvalid {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

func BenchmarkHashLarge(b *testing.B) {
	for _, name := range []string{"strings", "integers", "object"} {
		doc := benchDocs()[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := canon.HashDocument(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
