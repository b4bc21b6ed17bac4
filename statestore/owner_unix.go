//go:build unix

package statestore

import (
	"io/fs"
	"os"
	"syscall"
)

// foreignOwner reports a file owned by another user than the one running.
func foreignOwner(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Geteuid()
}
