package approval

import (
	"fmt"
	"strings"
)

// refusalReason returns "" when typed is exactly hash, and otherwise a short
// reason (short enough to fit beside Refusal on a 100-column line) that helps the human get it right without weakening the rule: no
// trimming, no case folding, no prefix. The typed text itself is never
// echoed (it may be anything that was on the clipboard).
func refusalReason(typed, hash string) string {
	switch {
	case hash == "":
		return "this plan has no hash"
	case typed == hash:
		return ""
	case typed == "":
		return "nothing was typed"
	case strings.EqualFold(typed, hash):
		return "case differs; type it as shown"
	case strings.ReplaceAll(strings.ReplaceAll(typed, " ", ""), "\t", "") == hash:
		return "type it without spaces"
	case len(typed) < len(hash) && strings.HasPrefix(hash, typed):
		return fmt.Sprintf("only the first %d of %d characters", len(typed), len(hash))
	case len(typed) != len(hash):
		return fmt.Sprintf("%d characters; the hash has %d", len([]rune(typed)), len(hash))
	}
	return "it does not match"
}

// hashGroups splits a hash into groups of 8 for reading aloud and comparing.
func hashGroups(hash string) []string {
	var out []string
	for len(hash) > 8 {
		out = append(out, hash[:8])
		hash = hash[8:]
	}
	if hash != "" {
		out = append(out, hash)
	}
	return out
}
