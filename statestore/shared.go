package statestore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// Shared is one file directly under the state root that every run shares:
// the automation registry (PROTOCOL §7, "The Automation registry is a file
// there"). It has the same two guarantees as a run's records: it is only
// ever replaced whole (WriteAtomic), and only by the holder of its own
// exclusive lock, <name>.lock beside it.
type Shared struct {
	root string
	name string
	fs   fileSystem

	// LockTimeout is how long Lock waits for another holder before giving
	// up with ErrBusy. OpenShared sets DefaultLockTimeout.
	LockTimeout time.Duration

	mu   sync.Mutex
	held *flock.Flock
}

// OpenShared returns the shared file name under root, creating root (0700)
// when missing. The file itself is not created: a missing file reads as
// fs.ErrNotExist. name is a plain record name (letters, digits, '.', '_',
// '-'), chosen by the program.
func OpenShared(root, name string) (*Shared, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if strings.HasSuffix(name, ".lock") {
		return nil, fmt.Errorf("statestore: invalid shared file name %q", name)
	}
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("statestore: root %q is not absolute", root)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("statestore: %w", err)
	}
	if err := privateDir(root); err != nil {
		return nil, err
	}
	return &Shared{root: root, name: name, fs: osFS{}, LockTimeout: DefaultLockTimeout}, nil
}

// Path is the file's absolute path.
func (s *Shared) Path() string { return filepath.Join(s.root, s.name) }

// Lock takes the file's exclusive lock; see Run.Lock, whose rules it
// shares: an flock the kernel releases when the holder dies, a bounded
// wait, and an error (not a no-op) when this value already holds it.
func (s *Shared) Lock(ctx context.Context) (unlock func(), err error) {
	s.mu.Lock()
	if s.held != nil {
		s.mu.Unlock()
		return nil, errors.New("statestore: the lock of " + s.name + " is already held here")
	}
	s.mu.Unlock()

	fl, err := acquire(ctx, s.Path()+".lock", s.LockTimeout)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.held != nil {
		s.mu.Unlock()
		_ = fl.Unlock()
		return nil, errors.New("statestore: the lock of " + s.name + " is already held here")
	}
	s.held = fl
	s.mu.Unlock()
	s.sweepTemps()

	released := false
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if released {
			return
		}
		released = true
		s.held = nil
		_ = fl.Unlock()
	}, nil
}

// WriteAtomic replaces the file with data (see Run.WriteAtomic). The lock
// must be held, or ErrNotLocked is returned and nothing is written.
func (s *Shared) WriteAtomic(data []byte) error {
	s.mu.Lock()
	locked := s.held != nil
	fsys := s.fs
	s.mu.Unlock()
	if !locked {
		return ErrNotLocked
	}
	return writeAtomicIn(fsys, s.root, s.name, data)
}

// Read returns the file's bytes. A missing file is an error wrapping
// fs.ErrNotExist; a symlink or anything but a regular file, or a file
// larger than MaxRecordBytes, is refused. No lock is needed.
func (s *Shared) Read() ([]byte, error) {
	p := s.Path()
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

// SetWriteHook makes every later write consult hook before each of its
// steps, named "create", "write", "sync", "close", "rename", "syncdir" and
// "remove" (the cleanup of a failed write). An error from hook fails that
// step (for "remove": skips the cleanup, as a killed process would). It is
// the seam by which packages built on Shared prove, in their tests, that a
// failure or a kill at any step leaves the old file or the new one, never a
// torn one; production code never sets it. nil restores the plain writes.
func (s *Shared) SetWriteHook(hook func(step string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if hook == nil {
		s.fs = osFS{}
		return
	}
	s.fs = hookFS{fileSystem: osFS{}, hook: hook}
}

// sweepTemps removes this file's temporaries that a crashed writer left
// behind; it runs under the lock, so no live writer owns them. Other files
// in the root are not this Shared's business.
func (s *Shared) sweepTemps() {
	entries, err := os.ReadDir(s.root)
	if err != nil {
		return
	}
	prefix := "." + s.name + tempMark
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(s.root, n))
		}
	}
}
