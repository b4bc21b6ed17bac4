package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// Hash returns the lowercase hex SHA-256 of data as given; it does not
// canonicalize (use HashValue or Canonicalize first).
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

var hashEncoders = sync.Pool{New: func() any {
	return &encoder{buf: make([]byte, 0, flushAt+flushAt/2), sink: sha256.New()}
}}

// HashValue returns the lowercase hex SHA-256 of the canonical encoding of v,
// with Marshal's meaning (so Go structs are fine). Value trees are streamed
// into the digest, so hashing never holds the whole encoding.
func HashValue(v any) (string, error) {
	e := hashEncoders.Get().(*encoder)
	defer putHashEncoder(e)
	e.buf = e.buf[:0]
	e.sink.Reset()
	if err := e.value(v, 0); err != nil {
		// Not a Value tree: take Marshal's encoding/json path.
		s := getScanner()
		defer putScanner(s)
		if err := s.scanGo(v); err != nil {
			return "", err
		}
		e.buf, _ = s.emit(e.buf[:0], 0)
		e.sink.Reset()
	}
	e.sink.Write(e.buf)
	var sum [sha256.Size]byte
	return hex.EncodeToString(e.sink.Sum(sum[:0])), nil
}

// putHashEncoder drops oversized buffers (a single huge string can grow one)
// so the pool does not pin that memory.
func putHashEncoder(e *encoder) {
	if cap(e.buf) > 4*flushAt {
		e.buf = make([]byte, 0, flushAt+flushAt/2)
	}
	hashEncoders.Put(e)
}
