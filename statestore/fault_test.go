package statestore

import (
	"errors"
	"os"
	"strings"
	"testing"
)

var errInjected = errors.New("injected failure")

// faultFS wraps the real file system and fails at one step. With crash set,
// the failing step also skips cleanup, as a killed process would.
type faultFS struct {
	osFS
	failAt  string // "create", "write", "sync", "close", "rename", "syncdir"
	crash   bool
	renamed int
}

type faultFile struct {
	*os.File
	fs *faultFS
}

func (f *faultFS) CreateTemp(dir, pattern string) (tempFile, error) {
	if f.failAt == "create" {
		return nil, errInjected
	}
	file, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return faultFile{file, f}, nil
}

func (f faultFile) Write(p []byte) (int, error) {
	if f.fs.failAt == "write" {
		// Half the data reaches the disk, as a full disk would allow.
		n, _ := f.File.Write(p[:len(p)/2])
		return n, errInjected
	}
	return f.File.Write(p)
}

func (f faultFile) Sync() error {
	if f.fs.failAt == "sync" {
		return errInjected
	}
	return f.File.Sync()
}

func (f faultFile) Close() error {
	err := f.File.Close()
	if f.fs.failAt == "close" {
		return errInjected
	}
	return err
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if f.failAt == "rename" {
		return errInjected
	}
	f.renamed++
	return os.Rename(oldpath, newpath)
}

func (f *faultFS) Remove(name string) error {
	if f.crash {
		return nil
	}
	return os.Remove(name)
}

func (f *faultFS) SyncDir(dir string) error {
	if f.failAt == "syncdir" {
		return errInjected
	}
	return f.osFS.SyncDir(dir)
}

func TestFailedWriteKeepsOldRecord(t *testing.T) {
	for _, step := range []string{"create", "write", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			r, _ := openLocked(t)
			old := []byte(`{"version":"old"}`)
			if err := r.WriteAtomic("rec.json", old); err != nil {
				t.Fatal(err)
			}
			r.fs = &faultFS{failAt: step}
			err := r.WriteAtomic("rec.json", []byte(`{"version":"new, and longer than the old one"}`))
			if !errors.Is(err, errInjected) {
				t.Fatalf("got %v, want the injected failure", err)
			}
			got, err := r.Read("rec.json")
			if err != nil || string(got) != string(old) {
				t.Fatalf("old record not intact: %q %v", got, err)
			}
			assertNoTemps(t, r.Dir())
		})
	}
}

// A process killed between the write and the rename leaves the old record
// and a stray temporary file; the next holder of the lock removes it.
func TestCrashBeforeRenameThenRecovery(t *testing.T) {
	r, unlock := openLocked(t)
	old := []byte("old")
	if err := r.WriteAtomic("rec.json", old); err != nil {
		t.Fatal(err)
	}
	r.fs = &faultFS{failAt: "rename", crash: true}
	if err := r.WriteAtomic("rec.json", []byte("new")); err == nil {
		t.Fatal("want failure")
	}
	if got, _ := r.Read("rec.json"); string(got) != "old" {
		t.Fatalf("record is %q", got)
	}
	entries, _ := os.ReadDir(r.Dir())
	stray := 0
	for _, e := range entries {
		if strings.Contains(e.Name(), tempMark) {
			stray++
		}
	}
	if stray != 1 {
		t.Fatalf("want the crashed writer's temp file, found %d", stray)
	}
	unlock()
	r.fs = osFS{}
	unlock2, err := r.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock2()
	assertNoTemps(t, r.Dir())
}

func TestDirSyncFailureIsReported(t *testing.T) {
	r, _ := openLocked(t)
	f := &faultFS{failAt: "syncdir"}
	r.fs = f
	err := r.WriteAtomic("rec.json", []byte("new"))
	if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "power loss") {
		t.Fatalf("got %v", err)
	}
	if f.renamed != 1 {
		t.Fatalf("rename happened %d times", f.renamed)
	}
}
