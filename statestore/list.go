package statestore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// KeysWith returns the keys of the run directories under root that hold
// the record name, in directory-name order. A directory whose key file is
// missing or does not name it (DirName) is skipped: it is not a run this
// program bound. Nothing is created or locked; open a key with Open to use
// it.
//
// It lets a caller find runs no registry points at any more, e.g. a
// finalization killed after it deleted the run's automation.
func KeysWith(root, name string) ([]string, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("statestore: root %q is not absolute", root)
	}
	runs := filepath.Join(root, runsDir)
	entries, err := os.ReadDir(runs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("statestore: %w", err)
	}
	var keys []string
	for _, de := range entries {
		if !de.IsDir() { // a symlink is never one of our directories
			continue
		}
		dir := filepath.Join(runs, de.Name())
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		key, err := os.ReadFile(filepath.Join(dir, keyFile))
		if err != nil || checkKey(string(key)) != nil || DirName(string(key)) != de.Name() {
			continue
		}
		keys = append(keys, string(key))
	}
	return keys, nil
}
