package automations

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

const idPrefix = "automation-"

// newID returns a fresh opaque id: 128 random bits, so that ids never
// collide across machines or a deleted and re-created key.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("automations: no randomness for an id: %w", err)
	}
	return idPrefix + hex.EncodeToString(b[:]), nil
}

func validID(s string) bool {
	rest, ok := strings.CutPrefix(s, idPrefix)
	return ok && isHex(rest, 32)
}
