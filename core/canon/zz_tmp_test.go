package canon

import "testing"

func BenchmarkZScan(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	s := new(scanner)
	for b.Loop() {
		if err := s.scan(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZEmit(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	s := new(scanner)
	if err := s.scan(doc); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, len(doc))
	for b.Loop() {
		buf, _ = s.emit(buf[:0], 0)
	}
}

func BenchmarkZSha(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Hash(doc)
	}
}
