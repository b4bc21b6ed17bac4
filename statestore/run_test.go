package statestore

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const testRunID = "0123456789abcdef0123456789abcdef"

func openLocked(t *testing.T) (*Run, func()) {
	t.Helper()
	r, err := OpenPlan(t.TempDir(), testRunID)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unlock)
	return r, unlock
}

func TestOpenLayoutAndPermissions(t *testing.T) {
	root := t.TempDir()
	r, err := OpenPlan(root, testRunID)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "runs", DirName("plan/"+testRunID))
	if r.Dir() != want {
		t.Fatalf("dir %q, want %q", r.Dir(), want)
	}
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if err := r.WriteAtomic("x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{
		filepath.Join(root, "runs"):      0o700,
		r.Dir():                          0o700,
		filepath.Join(r.Dir(), "x.json"): 0o600,
		filepath.Join(r.Dir(), "key"):    0o600,
		filepath.Join(r.Dir(), "lock"):   0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), mode)
		}
	}
	key, err := os.ReadFile(filepath.Join(r.Dir(), "key"))
	if err != nil || string(key) != "plan/"+testRunID {
		t.Fatalf("key file %q %v", key, err)
	}
}

func TestOpenNarrowsWideDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "runs", DirName("k"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, "k"); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestOpenRefusesForeignKeyAndSymlink(t *testing.T) {
	root := t.TempDir()
	r, err := Open(root, "k1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), "key"), []byte("k2"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, "k1"); err == nil || !strings.Contains(err.Error(), "another key") {
		t.Fatalf("foreign key: %v", err)
	}

	root2 := t.TempDir()
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root2, "runs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root2, "runs", DirName("k"))); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root2, "k"); err == nil {
		t.Fatal("a symlinked run directory must be refused")
	}
	if _, err := Open("relative", "k"); err == nil {
		t.Fatal("a relative root must be refused")
	}
	if _, err := Open(root, ""); err == nil {
		t.Fatal("an empty key must be refused")
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	r, _ := openLocked(t)
	if _, err := r.Read("a.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing record: %v", err)
	}
	for _, data := range [][]byte{[]byte("one"), []byte("two, longer"), {}} {
		if err := r.WriteAtomic("a.json", data); err != nil {
			t.Fatal(err)
		}
		got, err := r.Read("a.json")
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %q %v, want %q", got, err, data)
		}
	}
	assertNoTemps(t, r.Dir())
}

func TestRecordNames(t *testing.T) {
	r, _ := openLocked(t)
	for _, bad := range []string{"", ".hidden", "../x", "a/b", "key", "lock", "a b", "a\x00", strings.Repeat("a", 129)} {
		if err := r.WriteAtomic(bad, nil); err == nil {
			t.Errorf("WriteAtomic(%q): want error", bad)
		}
		if _, err := r.Read(bad); err == nil && bad != "key" {
			t.Errorf("Read(%q): want error", bad)
		}
	}
}

func TestWriteRequiresLock(t *testing.T) {
	r, err := OpenPlan(t.TempDir(), testRunID)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteAtomic("a.json", []byte("x")); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("got %v", err)
	}
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	unlock() // idempotent
	if err := r.WriteAtomic("a.json", []byte("x")); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("after unlock: %v", err)
	}
}

// Readers racing a writer must only ever see a whole old or whole new
// record, never a torn or empty one.
func TestConcurrentReadersSeeWholeRecords(t *testing.T) {
	r, _ := openLocked(t)
	a := bytes.Repeat([]byte("a"), 256<<10)
	b := bytes.Repeat([]byte("b"), 300<<10)
	if err := r.WriteAtomic("big.bin", a); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad sync.Map
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := r.Read("big.bin")
				if err != nil {
					bad.Store("err", err)
					return
				}
				if !bytes.Equal(got, a) && !bytes.Equal(got, b) {
					bad.Store("torn", len(got))
					return
				}
			}
		}()
	}
	for i := 0; i < 60; i++ {
		data := a
		if i%2 == 0 {
			data = b
		}
		if err := r.WriteAtomic("big.bin", data); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	bad.Range(func(k, v any) bool {
		t.Errorf("%v: %v", k, v)
		return true
	})
	assertNoTemps(t, r.Dir())
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), tempMark) {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// A state root that is a symlink is followed only to a private directory of
// ours: a link to a group- or world-writable directory is refused and the
// directory is left untouched (no runs/ created in it). A real root that
// others can write is refused too.
func TestOpenRefusesAStateRootOthersCanWrite(t *testing.T) {
	for _, mode := range []os.FileMode{0o777, 0o770, os.ModeSticky | 0o777, 0o720} {
		shared := filepath.Join(t.TempDir(), "shared")
		if err := os.Mkdir(shared, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(shared, mode); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(t.TempDir(), "state")
		if err := os.Symlink(shared, link); err != nil {
			t.Fatal(err)
		}
		_, err := Open(link, "k")
		if err == nil || !strings.Contains(err.Error(), "writable by other users") || !strings.Contains(err.Error(), shared) {
			t.Fatalf("symlink to a %04o directory: %v", mode, err)
		}
		if _, err := os.Lstat(filepath.Join(shared, "runs")); !os.IsNotExist(err) {
			t.Fatalf("the shared directory was written to: %v", err)
		}
		if fi, _ := os.Stat(shared); fi.Mode().Perm() != mode.Perm() {
			t.Fatalf("the shared directory's mode was changed to %v", fi.Mode().Perm())
		}
		if _, err := Open(shared, "k"); err == nil {
			t.Fatalf("a %04o root must be refused", mode)
		}
	}

	// A symlink to a private directory of ours is fine.
	private := t.TempDir()
	link := filepath.Join(t.TempDir(), "state")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(link, "k"); err != nil {
		t.Fatalf("symlink to a private directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(private, "runs")); err != nil {
		t.Fatal(err)
	}
}
