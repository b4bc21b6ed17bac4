//go:build !unix

package statestore

import "io/fs"

// foreignOwner: outside Unix ownership is ACLs, which this check does not
// read; the permission-bit check in checkRoot is all that applies.
func foreignOwner(fs.FileInfo) bool { return false }
