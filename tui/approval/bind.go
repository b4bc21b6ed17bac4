package approval

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
)

// The console shows a file's bytes and the plan hashes its blob ids; the
// two are bound here, by hashing exactly the bytes the console holds (and
// so shows) the way git names a blob, "blob <len>\x00<content>", and
// comparing with the ids the plan's diff_sha256 binds. Content read after
// the plan was built (X at build, Y on screen, X again at the re-check)
// therefore cannot be approved: Y does not hash to X's blob.

// gitBlobID is git's object id of content in the object format of like
// (a 64-hex id is SHA-256, anything else SHA-1).
func gitBlobID(like, content string) string {
	var h hash.Hash = sha1.New()
	if len(like) == 64 {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	// In chunks: converting a file of megabytes to []byte at once would
	// copy it whole.
	var buf [32 << 10]byte
	for len(content) > 0 {
		n := copy(buf[:], content)
		h.Write(buf[:n])
		content = content[n:]
	}
	return hex.EncodeToString(h.Sum(nil))
}

// unbound returns "" when every side of f shown is the plan's blob, and
// otherwise which side is not. A side the plan has must have its id: a
// missing id fails closed.
func (f File) unbound() string {
	if f.Status != Added {
		if f.OldBlob == "" || gitBlobID(f.OldBlob, f.Old) != f.OldBlob {
			return "the old side shown is not the plan's blob"
		}
	}
	if f.Status != Deleted {
		if f.NewBlob == "" {
			return "the plan names no blob for the new side"
		}
		id := gitBlobID(f.NewBlob, f.New)
		// git may convert a file when it stages it (line endings, an
		// attribute); the caller then says which id git gives these very
		// bytes at this path.
		if id != f.NewBlob && f.NewStagedBlob != f.NewBlob {
			return "the new side shown is not the content the plan hashes"
		}
	}
	return ""
}
