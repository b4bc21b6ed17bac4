//go:build unix

package local

import (
	"io/fs"
	"syscall"
)

// linkCount is the number of hard links to fi's file.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 2 // unknown: treat as possibly shared
}
