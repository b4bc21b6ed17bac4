package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedExamplesMatchFixtures keeps examples/ in step with the rules:
// a fixture change that is not regenerated (make examples) fails here.
func TestCommittedExamplesMatchFixtures(t *testing.T) {
	want := Examples()
	root := filepath.Join("..", "..", "examples")
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v (run make examples)", name, err)
			continue
		}
		if !bytes.Equal(got, b) {
			t.Errorf("%s is stale (run make examples)", name)
		}
	}
	var extra []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			if _, ok := want[filepath.ToSlash(rel)]; !ok {
				extra = append(extra, rel)
			}
		}
		return nil
	})
	if len(extra) > 0 {
		t.Errorf("examples/ has files no fixture generates: %v", extra)
	}
}
