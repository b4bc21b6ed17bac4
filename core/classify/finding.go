package classify

import (
	"regexp"
	"strings"
)

// reBadge is the priority badge image the bot opens an inline finding with:
// ![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)
var reBadge = regexp.MustCompile(`!\[(P[0-3]) Badge\]\([^)\s]*\)`)

var reSubTag = regexp.MustCompile(`(?i)</?sub>`)

// ParseFinding reads an inline finding's priority ("P0".."P3", or "" when the
// first line carries no badge) and its title: the first non-empty line
// without the badge, the <sub> wrappers and the bold markers. The result is
// display text from an untrusted body; it decides nothing.
func ParseFinding(body string) (priority, title string) {
	var line string
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	if m := reBadge.FindStringSubmatchIndex(line); m != nil {
		priority = line[m[2]:m[3]]
		line = line[:m[0]] + line[m[1]:]
	}
	line = reSubTag.ReplaceAllString(line, "")
	line = strings.TrimRight(strings.TrimLeft(strings.TrimSpace(line), "#*"), "*")
	return priority, strings.Join(strings.Fields(line), " ")
}
