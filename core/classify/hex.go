package classify

import "strings"

// isSHA1 reports whether s is a full 40-hex lowercase object id.
func isSHA1(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func lowerHex(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// prefixOf reports whether short (7 hex or more) abbreviates full.
func prefixOf(short, full string) bool {
	return len(short) >= 7 && isSHA1(full) && strings.HasPrefix(full, short)
}
