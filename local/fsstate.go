package local

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/prloop/gh-prloop/gitx"
)

// lstateValue describes a file without following a final symlink:
// {"type":"missing"}, {"type":"file","sha256":...}, {"type":"symlink",
// "target":...}, {"type":"directory"} or {"type":"other"}.
func lstateValue(path string) (any, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if isMissing(err) {
			return map[string]any{"type": "missing"}, nil
		}
		return nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(path)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "symlink", "target": gitx.BytesValue([]byte(t))}, nil
	case fi.IsDir():
		return map[string]any{"type": "directory"}, nil
	case fi.Mode().IsRegular():
		return fileValue(path)
	}
	return map[string]any{"type": "other"}, nil
}

// stateValue is lstateValue after following symlinks, for the files git
// itself reads through links (core.attributesFile, info/*).
func stateValue(path string) (any, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if isMissing(err) {
			return map[string]any{"type": "missing"}, nil
		}
		return nil, err
	}
	switch {
	case fi.IsDir():
		return map[string]any{"type": "directory"}, nil
	case fi.Mode().IsRegular():
		return fileValue(path)
	}
	return map[string]any{"type": "other"}, nil
}

func fileValue(path string) (any, error) {
	f, err := os.Open(path)
	if err != nil {
		if isMissing(err) {
			return map[string]any{"type": "missing"}, nil
		}
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return map[string]any{"type": "file", "sha256": hex.EncodeToString(h.Sum(nil))}, nil
}

// isMissing treats "a parent is not a directory" like "does not exist", as
// git does when it looks for optional files.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
