package statestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"unicode/utf8"
)

// MaxKeyBytes bounds a key; real keys are short digests or "plan/<run id>".
const MaxKeyBytes = 1024

const (
	readableMax = 48
	digestHex   = 16 // 64 bits: a directory name, not a security boundary (the key file is checked)
)

// PlanKey is the key of a plan that has no automation key yet: the approval
// of an initial plan is recorded before the automation exists.
func PlanKey(runID string) (string, error) {
	if len(runID) != 32 || strings.Trim(runID, "0123456789abcdef") != "" {
		return "", errors.New("statestore: a run id is 32 lowercase hex characters")
	}
	return "plan/" + runID, nil
}

// DirName maps a key to its directory name: the key's letters, digits, '.',
// '_' and '-' (lowercased; any other run of bytes becomes one '-'; at most
// 48 characters, never starting with '.') then '-' and the first 16 hex
// digits of the key's SHA-256. "plan/0123…" becomes "plan-0123…-<digest>".
func DirName(key string) string {
	var b strings.Builder
	dash := false
	for i := 0; i < len(key) && b.Len() < readableMax; i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '-', c == '.' && b.Len() > 0:
			b.WriteByte(c)
			dash = false
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	readable := strings.TrimRight(b.String(), "-.")
	sum := sha256.Sum256([]byte(key))
	d := hex.EncodeToString(sum[:])[:digestHex]
	if readable == "" {
		return d
	}
	return readable + "-" + d
}

func checkKey(key string) error {
	switch {
	case key == "":
		return errors.New("statestore: empty key")
	case len(key) > MaxKeyBytes:
		return errors.New("statestore: key longer than 1024 bytes")
	case !utf8.ValidString(key):
		return errors.New("statestore: key is not valid UTF-8")
	case strings.ContainsRune(key, 0):
		return errors.New("statestore: key contains NUL")
	}
	return nil
}
