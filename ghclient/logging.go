package ghclient

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// logTarget applies gh's GH_DEBUG convention when no writer is given.
func logTarget(o Options) (io.Writer, bool) {
	if o.Log != nil {
		return o.Log, o.LogVerbose
	}
	switch v := os.Getenv("GH_DEBUG"); v {
	case "", "0", "false", "no":
		return nil, false
	default:
		return os.Stderr, strings.Contains(v, "api")
	}
}

// redactingWriter masks the token in log output, whatever put it there (a
// server echoing it in a body, for instance). A token holds no newline, so
// complete lines are redacted and written at once; an unfinished line is
// held back until it ends (or grows past maxHeld, keeping only as many bytes
// as could begin a token).
//
// The log goes to stderr (GH_DEBUG) and quotes the server's headers and
// bodies, so what is written is also sanitized: go-gh neutralises C0/C1
// controls in JSON bodies but not bidi or invisible characters, and not the
// headers at all.
type redactingWriter struct {
	mu     sync.Mutex
	w      io.Writer
	secret []byte
	held   []byte
}

const maxHeld = 64 << 10

func newRedactingWriter(w io.Writer, secret string) *redactingWriter {
	return &redactingWriter{w: w, secret: []byte(secret)}
}

func (r *redactingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.held = append(r.held, p...)
	if len(r.secret) > 0 {
		// Redact before cutting, so that no cut can split a whole token.
		r.held = bytes.ReplaceAll(r.held, r.secret, []byte("[REDACTED]"))
	}
	cut := bytes.LastIndexByte(r.held, '\n') + 1
	if len(r.held)-cut > maxHeld {
		cut = len(r.held) - max(len(r.secret)-1, 0)
	}
	if cut <= 0 {
		return len(p), nil
	}
	out := []byte(sanitize.Text(string(r.held[:cut])))
	r.held = append([]byte(nil), r.held[cut:]...)
	if _, err := r.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
