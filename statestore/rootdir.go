package statestore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkRoot refuses a state root that someone else could rearrange. Every
// directory below the root is ours (privateDir), but the root itself is
// chosen by the environment: if another user can write it (or the
// directory a symlinked root points to), they can replace runs/ between our
// checks and our writes, and plant or swap an approval. A symlinked root is
// followed only to a directory that is ours and that nobody else can write;
// it is refused otherwise, never "fixed" by changing a directory elsewhere.
// A root that does not exist yet is fine: Open creates it 0700.
func checkRoot(root string) error {
	fi, err := os.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("statestore: state root: %w", err)
	}
	where := root
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(root)
		if err != nil {
			return fmt.Errorf("statestore: state root %s is a symlink that cannot be resolved: %w", root, err)
		}
		if fi, err = os.Stat(target); err != nil {
			return fmt.Errorf("statestore: state root %s: %w", root, err)
		}
		where = fmt.Sprintf("%s (a symlink to %s)", root, target)
	}
	if !fi.IsDir() {
		return fmt.Errorf("statestore: state root %s is not a directory", where)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("statestore: state root %s is writable by other users (mode %04o); refusing to keep approvals there: use a private directory (chmod go-w) or set %s", where, fi.Mode().Perm(), EnvStateDir)
	}
	if foreignOwner(fi) {
		return fmt.Errorf("statestore: state root %s belongs to another user; refusing to keep approvals there: set %s to a directory of yours", where, EnvStateDir)
	}
	return nil
}
