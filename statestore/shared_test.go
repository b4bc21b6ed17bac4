package statestore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSharedWriteNeedsLockAndReplacesWhole(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	s, err := OpenShared(root, "reg.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if err := s.WriteAtomic([]byte("x")); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("unlocked write: %v", err)
	}
	unlock, err := s.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(t.Context()); err == nil {
		t.Fatal("a second Lock on the same value must be refused")
	}
	if err := s.WriteAtomic([]byte("one")); err != nil {
		t.Fatal(err)
	}
	unlock()
	got, err := s.Read()
	if err != nil || string(got) != "one" {
		t.Fatalf("read %q %v", got, err)
	}
	fi, err := os.Stat(root)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("root mode %v %v", fi.Mode(), err)
	}
}

func TestSharedLockExcludesAnotherValue(t *testing.T) {
	root := t.TempDir()
	a, _ := OpenShared(root, "reg.json")
	b, _ := OpenShared(root, "reg.json")
	b.LockTimeout = 100 * time.Millisecond
	unlock, err := a.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(t.Context()); !errors.Is(err, ErrBusy) {
		t.Fatalf("second holder: %v", err)
	}
	unlock()
	unlockB, err := b.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	unlockB()
}

// A failure at any step keeps the old bytes; a "crash" (cleanup skipped)
// leaves a temporary file that the next holder of the lock removes.
func TestSharedWriteHookFailuresKeepOldFile(t *testing.T) {
	for _, step := range []string{"create", "write", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			root := t.TempDir()
			s, _ := OpenShared(root, "reg.json")
			unlock, err := s.Lock(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.WriteAtomic([]byte("old")); err != nil {
				t.Fatal(err)
			}
			s.SetWriteHook(func(st string) error {
				if st == step || st == "remove" {
					return errInjected
				}
				return nil
			})
			if err := s.WriteAtomic([]byte("new and longer")); !errors.Is(err, errInjected) {
				t.Fatalf("got %v", err)
			}
			if got, _ := s.Read(); string(got) != "old" {
				t.Fatalf("file is %q", got)
			}
			unlock()
			s.SetWriteHook(nil)
			unlock, err = s.Lock(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if strings.Contains(e.Name(), tempMark) {
					t.Fatalf("stray temporary %s after the next lock", e.Name())
				}
			}
		})
	}
}

func TestSharedRefusesSymlinkAndBadNames(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "target"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "target"), filepath.Join(root, "reg.json")); err != nil {
		t.Fatal(err)
	}
	s, _ := OpenShared(root, "reg.json")
	if _, err := s.Read(); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("symlink read: %v", err)
	}
	for _, n := range []string{"", "../x", "a/b", ".hidden", "reg.lock"} {
		if _, err := OpenShared(root, n); err == nil {
			t.Errorf("name %q accepted", n)
		}
	}
	if _, err := OpenShared("rel", "reg.json"); err == nil {
		t.Error("relative root accepted")
	}
}
