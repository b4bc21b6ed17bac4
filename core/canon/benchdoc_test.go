package canon

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
)

// benchDocEnv switches the test binary into a helper mode for
// scripts/bench_hash.py: write the benchmark document to that path, print
// its canonical hash and exit, so Python times itself on the very same bytes.
const benchDocEnv = "CANON_BENCH_DOC_OUT"

func TestMain(m *testing.M) {
	if path := os.Getenv(benchDocEnv); path != "" {
		if err := writeBenchDoc(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// writeBenchDoc also checks that the bytes path (Canonicalize) and the Value
// path (Parse, HashValue) agree on the digest it prints.
func writeBenchDoc(path string) error {
	doc := benchDoc()
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		return err
	}
	c, err := Canonicalize(doc)
	if err != nil {
		return err
	}
	v, err := Parse(doc)
	if err != nil {
		return err
	}
	h, err := HashValue(v)
	if err != nil {
		return err
	}
	if h != Hash(c) {
		return fmt.Errorf("HashValue %s != Hash(Canonicalize) %s", h, Hash(c))
	}
	fmt.Println(h)
	return nil
}

const benchDocSize = 10 << 20

var benchDoc = sync.OnceValue(func() []byte { return genBenchDoc(benchDocSize) })

// genBenchDoc builds a deterministic document shaped like what prloop
// hashes: pull requests with review threads, comment bodies in markdown
// with non-ASCII text and escapes, SHAs, URLs, counters and big ids. It is
// pretty-printed with unsorted keys so hashing has real work to do.
func genBenchDoc(size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"fix", "the", "review", "thread", "résumé", "naïve", "код", "修复", "テスト",
		"<b>bold</b>", "a && b", "path/to/file.go", "`code`", "😀", "\u2028", "\"quoted\"", "C:\\dir",
		"line\nbreak", "tab\there", "lorem", "ipsum", "dolor", "sit", "amet"}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	sha := func() string { return fmt.Sprintf("%016x%016x%08x", r.Uint64(), r.Uint64(), r.Uint32()) }
	var b strings.Builder
	b.WriteString("{\n  \"schema_version\": 1,\n  \"pull_requests\": [\n")
	for pr := 0; b.Len() < size; pr++ {
		if pr > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    {\"title\": %q, \"number\": %d, \"node_id\": \"PR_kwDO%08x\", \"is_draft\": %t,\n",
			text(6), pr+1, r.Uint32(), r.IntN(2) == 0)
		fmt.Fprintf(&b, "     \"head_sha\": %q, \"base_sha\": %q, \"database_id\": %d, \"merged_at\": null,\n",
			sha(), sha(), uint64(1)<<63+r.Uint64()>>1)
		fmt.Fprintf(&b, "     \"url\": \"https://github.com/owner/repo/pull/%d\", \"labels\": [\"bug\", \"codex\", \"needs-review\"],\n", pr+1)
		b.WriteString("     \"review_threads\": [")
		for th, n := 0, 1+r.IntN(6); th < n; th++ {
			if th > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{\"path\": \"core/pkg%d/file%d.go\", \"line\": %d, \"is_resolved\": %t, \"is_outdated\": false, \"comments\": [",
				r.IntN(20), r.IntN(50), r.IntN(3000), r.IntN(3) == 0)
			for c, m := 0, 1+r.IntN(4); c < m; c++ {
				if c > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{\"id\": %d, \"author\": {\"login\": \"user%d\", \"type\": \"User\"}, \"body\": %q, \"created_at\": \"2025-0%d-1%dT12:%02d:00Z\", \"reactions\": {\"+1\": %d, \"eyes\": %d}}",
					r.Int64(), r.IntN(100), text(10+r.IntN(60)), 1+r.IntN(9), r.IntN(10), r.IntN(60), r.IntN(5), r.IntN(3))
			}
			b.WriteString("]}")
		}
		b.WriteString("]}")
	}
	b.WriteString("\n  ]\n}\n")
	return []byte(b.String())
}

func TestBenchDocIsCanonicalizable(t *testing.T) {
	doc := genBenchDoc(64 << 10)
	v, err := Parse(doc)
	if err != nil {
		t.Fatalf("benchmark document does not parse: %v", err)
	}
	if _, err := Encode(v); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkHashValue10MB is the Value path: Parse to a tree, then stream its
// canonical encoding into SHA-256.
func BenchmarkHashValue10MB(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v, err := Parse(doc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := HashValue(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHash10MB is bytes in, digest out, the same pipeline
// scripts/bench_hash.py times in Python: strict parse, canonical encoding,
// SHA-256.
func BenchmarkHash10MB(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c, err := Canonicalize(doc)
		if err != nil {
			b.Fatal(err)
		}
		Hash(c)
	}
}

func BenchmarkParse(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Parse(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	doc := benchDoc()
	v, err := Parse(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHashValueSmall(b *testing.B) {
	v := map[string]any{"run_id": "abc", "round": 3, "paths": []string{"a", "b"}, "sha": strings.Repeat("f", 40)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HashValue(v); err != nil {
			b.Fatal(err)
		}
	}
}
