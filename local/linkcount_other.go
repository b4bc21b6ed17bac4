//go:build !unix

package local

import "io/fs"

// linkCount is unknown here, so every file is treated as possibly shared
// and compared with os.SameFile.
func linkCount(fs.FileInfo) uint64 { return 2 }
