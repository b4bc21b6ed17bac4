package step

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/prloop/gh-prloop/ghclient"
)

// SHA256Hex is the lowercase SHA-256 of s.
func SHA256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// DeliveryUnknown reports whether err says a write may have reached GitHub:
// the caller must observe before deciding, never send again blindly.
func DeliveryUnknown(err error) bool {
	var du *ghclient.DeliveryUnknownError
	return errors.As(err, &du)
}

// LineWriter turns streamed output into one Emit call per line.
type LineWriter struct {
	buf  bytes.Buffer
	Emit func(string)
}

func (w *LineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for {
		i := bytes.IndexByte(w.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		line := string(w.buf.Next(i + 1))
		w.Emit(strings.TrimRight(line, "\r\n"))
	}
	return len(p), nil
}

// Flush emits what is left after the last newline.
func (w *LineWriter) Flush() {
	if w.buf.Len() > 0 {
		w.Emit(w.buf.String())
		w.buf.Reset()
	}
}
