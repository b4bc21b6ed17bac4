package approval

import (
	"fmt"
	"strings"
	"unicode"
)

// Typing the hash forgives formatting, not content: whitespace (the spaces
// between the groups the hash is shown in, the newline and indentation of a
// two-line copy) is ignored; everything else is exact, so a prefix, another
// hash or a changed case never approves.

// normalizeTyped removes every whitespace character from what was typed.
func normalizeTyped(typed string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, typed)
}

// firstDiff is the index of the first character of typed that differs from
// hash (len(typed) when typed is a prefix of it). typed is compared rune by
// rune, so a multi-byte character counts as one.
func firstDiff(typed, hash string) int {
	t := []rune(typed)
	for i, r := range t {
		if i >= len(hash) || r != rune(hash[i]) {
			return i
		}
	}
	return len(t)
}

// refusalReason returns "" when typed, whitespace aside, is exactly hash,
// and otherwise a short reason (it must fit an 80-column line after "✗ Not
// approved: ") that points at the first group of 8 that differs. The typed
// text itself is never echoed (it may be anything that was on the
// clipboard); the plan's group is, since it is on screen anyway.
func refusalReason(typed, hash string) string {
	t := normalizeTyped(typed)
	n := len([]rune(t))
	switch {
	case hash == "":
		return "this plan has no hash"
	case t == hash:
		return ""
	case t == "":
		return "nothing was typed"
	case strings.EqualFold(t, hash):
		return "the case differs; type it as shown"
	case n < len(hash) && strings.HasPrefix(hash, t):
		return fmt.Sprintf("only %d of the %d characters", n, len(hash))
	}
	i := firstDiff(t, hash)
	if i >= len(hash) {
		return fmt.Sprintf("%d characters; the hash has %d", n, len(hash))
	}
	g := i / 8
	return fmt.Sprintf("group %d of %d differs; the plan has %s there", g+1, len(hashGroups(hash)), hashGroups(hash)[g])
}

// progress is the live feedback while typing: how many characters of the
// hash are there, and whether they match so far.
func progress(typed, hash string) (string, bool) {
	t := normalizeTyped(typed)
	n := len([]rune(t))
	i := firstDiff(t, hash)
	switch {
	case t == hash:
		return fmt.Sprintf("%d of %d, matches; press enter to approve", n, len(hash)), true
	case i == n && n < len(hash):
		return fmt.Sprintf("%d of %d, matches so far", n, len(hash)), true
	case i >= len(hash):
		return fmt.Sprintf("%d of %d, too long", n, len(hash)), false
	}
	return fmt.Sprintf("%d of %d, group %d differs", n, len(hash), i/8+1), false
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
