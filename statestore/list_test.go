package statestore

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// KeysWith lists exactly the bound runs that hold the record; a directory
// whose key file names another directory, and a symlinked directory, are
// not runs and are skipped.
func TestKeysWithListsBoundRunsHoldingTheRecord(t *testing.T) {
	root := t.TempDir()
	ids := []string{"0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "00000000000000000000000000000000"}
	for i, id := range ids {
		r, err := OpenPlan(root, id)
		if err != nil {
			t.Fatal(err)
		}
		unlock, err := r.Lock(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			if err := r.WriteAtomic("marker.json", []byte("{}")); err != nil {
				t.Fatal(err)
			}
		}
		unlock()
	}
	// A directory bound to nothing of its own name: a copied run.
	copied := filepath.Join(root, "runs", "copied")
	if err := os.MkdirAll(copied, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"key": "plan/" + ids[0], "marker.json": "{}"} {
		if err := os.WriteFile(filepath.Join(copied, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "runs", DirName("plan/"+ids[1])), filepath.Join(root, "runs", "link")); err != nil {
		t.Fatal(err)
	}
	got, err := KeysWith(root, "marker.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"plan/" + ids[0], "plan/" + ids[1]}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("KeysWith = %v, want %v", got, want)
	}
	if _, err := KeysWith(root, "../key"); err == nil {
		t.Fatal("an invalid record name was accepted")
	}
	if keys, err := KeysWith(t.TempDir(), "marker.json"); err != nil || len(keys) != 0 {
		t.Fatalf("empty root: %v %v", keys, err)
	}
}
