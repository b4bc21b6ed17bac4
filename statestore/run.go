package statestore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// MaxRecordBytes bounds what Read returns; records are documents of at most
// a few megabytes, and a larger file is not one this program wrote.
const MaxRecordBytes = 64 << 20

const (
	runsDir  = "runs"
	keyFile  = "key"
	lockFile = "lock"
	tempMark = ".tmp-"
)

// Run is one run's state directory.
type Run struct {
	key string
	dir string
	fs  fileSystem

	// LockTimeout is how long Lock waits for another holder before giving
	// up with ErrBusy. Open sets DefaultLockTimeout.
	LockTimeout time.Duration

	mu   sync.Mutex
	held *flock.Flock
}

// Open returns the state directory of key under root, creating it (0700)
// when missing. root must be absolute (see Root). The directory records its
// key; opening it under a different key is refused, so a digest collision
// or a tampered directory can never mix two runs.
func Open(root, key string) (*Run, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("statestore: root %q is not absolute", root)
	}
	if err := checkRoot(root); err != nil {
		return nil, err
	}
	runs := filepath.Join(root, runsDir)
	dir := filepath.Join(runs, DirName(key))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("statestore: %w", err)
	}
	for _, d := range []string{runs, dir} {
		if err := privateDir(d); err != nil {
			return nil, err
		}
	}
	r := &Run{key: key, dir: dir, fs: osFS{}, LockTimeout: DefaultLockTimeout}
	if err := r.bindKey(); err != nil {
		return nil, err
	}
	return r, nil
}

// OpenPlan opens the pre-approval directory of a plan (PlanKey).
func OpenPlan(root, runID string) (*Run, error) {
	key, err := PlanKey(runID)
	if err != nil {
		return nil, err
	}
	return Open(root, key)
}

// Key is the key the directory belongs to.
func (r *Run) Key() string { return r.key }

// Dir is the directory's absolute path.
func (r *Run) Dir() string { return r.dir }

// privateDir refuses a symlink where a directory of ours should be (it
// could point anywhere) and narrows a directory others can read to 0700.
func privateDir(d string) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("statestore: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("statestore: %s is not a directory", d)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("statestore: %w", err)
		}
	}
	return nil
}

func (r *Run) bindKey() error {
	if err := r.checkKeyFile(); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// First use of the directory. The key is written under the lock, like
	// every record: the lock holder's sweep of temporary files must never
	// meet a writer that does not hold it.
	unlock, err := r.Lock(context.Background())
	if err != nil {
		return err
	}
	defer unlock()
	if err := r.checkKeyFile(); !errors.Is(err, fs.ErrNotExist) {
		return err // another process bound it meanwhile
	}
	return r.writeAtomic(keyFile, []byte(r.key))
}

// checkKeyFile returns nil when the directory is bound to r.key, an error
// wrapping fs.ErrNotExist when it is not bound yet, and any other error when
// it belongs to another key or cannot be read.
func (r *Run) checkKeyFile() error {
	got, err := r.Read(keyFile)
	if err != nil {
		return err
	}
	if string(got) != r.key {
		return fmt.Errorf("statestore: %s belongs to another key; refusing to mix two runs", r.dir)
	}
	return nil
}

// WriteAtomic replaces the record name with data: a temporary file in the
// same directory is written, synced and renamed over name, then the
// directory is synced. A crash at any point leaves either the old record or
// the new one, never a mix. The caller must hold the run's lock (Lock);
// writing without it is refused with ErrNotLocked.
func (r *Run) WriteAtomic(name string, data []byte) error {
	if err := checkName(name); err != nil {
		return err
	}
	r.mu.Lock()
	locked := r.held != nil
	r.mu.Unlock()
	if !locked {
		return ErrNotLocked
	}
	return r.writeAtomic(name, data)
}

func (r *Run) writeAtomic(name string, data []byte) error {
	return writeAtomicIn(r.fs, r.dir, name, data)
}

// writeAtomicIn is the one atomic replacement every record and the shared
// files go through (see WriteAtomic).
func writeAtomicIn(fsys fileSystem, dir, name string, data []byte) (err error) {
	f, err := fsys.CreateTemp(dir, "."+name+tempMark+"*")
	if err != nil {
		return fmt.Errorf("statestore: write %s: %w", name, err)
	}
	tmp := f.Name()
	renamed := false
	defer func() {
		if !renamed {
			_ = fsys.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("statestore: write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("statestore: sync %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("statestore: close %s: %w", name, err)
	}
	if err := fsys.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("statestore: rename %s: %w", name, err)
	}
	renamed = true
	if err := fsys.SyncDir(dir); err != nil {
		return fmt.Errorf("statestore: %s was replaced but its directory could not be synced, so the write may not survive a power loss: %w", name, err)
	}
	return nil
}

// Read returns the record name. A missing record is an error that wraps
// fs.ErrNotExist. Reading needs no lock: records are only ever replaced
// whole.
func (r *Run) Read(name string) ([]byte, error) {
	if name != keyFile {
		if err := checkName(name); err != nil {
			return nil, err
		}
	}
	p := filepath.Join(r.dir, name)
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, fmt.Errorf("statestore: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("statestore: %s is not a regular file", p)
	}
	if fi.Size() > MaxRecordBytes {
		return nil, fmt.Errorf("statestore: %s is larger than %d bytes", p, MaxRecordBytes)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("statestore: %w", err)
	}
	return data, nil
}

// checkName admits one plain file name: records are named by the program,
// never by remote text, so anything unusual is a bug. Names starting with
// '.' are the temporary files'; "key" and "lock" are the directory's own.
func checkName(name string) error {
	if name == "" || len(name) > 128 || name[0] == '.' || name == keyFile || name == lockFile {
		return fmt.Errorf("statestore: invalid record name %q", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("statestore: invalid record name %q", name)
		}
	}
	return nil
}

// sweepTemps removes temporary files a crashed writer left behind. It runs
// under the lock, so no live writer owns them.
func (r *Run) sweepTemps() {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, ".") && strings.Contains(n, tempMark) && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(r.dir, n))
		}
	}
}
