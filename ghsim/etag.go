package ghsim

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// etagFor is a weak validator over the exact response bytes, the form
// GitHub uses for JSON resources (W/"...").
func etagFor(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + hex.EncodeToString(sum[:16]) + `"`
}

// etagMatches implements If-None-Match's weak comparison over a list.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || strings.TrimPrefix(part, "W/") == want {
			return true
		}
	}
	return false
}
