package sandbox

import (
	"context"
	"testing"
)

// BenchmarkProbe is the cost of one real probe (a helper re-executed in
// fresh namespaces under Landlock), which every plan pays unless cached.
func BenchmarkProbe(b *testing.B) {
	for b.Loop() {
		if c := Probe(context.Background()); !c.All() && len(c.Missing) == 0 {
			b.Fatal("inconsistent")
		}
	}
}

// BenchmarkRunTrue is the overhead of running /bin/true in the sandbox.
func BenchmarkRunTrue(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Run(context.Background(), Spec{Argv: []string{"/bin/true"}, Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
