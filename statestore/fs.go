package statestore

import (
	"os"
	"runtime"
)

// fileSystem is the part of the OS an atomic write uses. It is an interface
// so that tests can fail (or "crash") at every step and prove that the old
// record survives.
type fileSystem interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	SyncDir(dir string) error
}

type tempFile interface {
	Name() string
	Write(p []byte) (int, error)
	Sync() error
	Close() error
}

type osFS struct{}

// CreateTemp creates the file 0600 (os.CreateTemp's mode), which a umask can
// only narrow.
func (osFS) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }

// SyncDir makes the rename itself durable: without it a power loss can
// bring back the directory entry of the old file.
func (osFS) SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for sync there; rename is durable on NTFS
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		return serr
	}
	return cerr
}
