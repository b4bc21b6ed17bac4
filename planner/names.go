package planner

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/local"
)

// bodyAllows are the only invisible characters a PR body may hold: line
// ends (GitHub's web editor stores "\r\n") and tabs. Everything else
// validate.Hidden names (bidi, zero-width, tag characters, other controls)
// is refused in the body as in every other name.
const bodyAllows = "\n\r\t"

// checkNames refuses a plan whose bound names a human cannot read as they
// are: the branches and remote it pushes to, the PR title and body it
// creates or reuses, and the clean filters it runs. The console would show
// them stripped (tui/sanitize) while git, GitHub and the model reading the
// automation prompt get every byte, so approval would be of a different
// string. Paths are refused the same way where they are observed (local).
func checkNames(head string, obs *local.Observation, title, body string) error {
	names := []struct{ what, value, allow string }{
		{"head branch", head, ""},
		{"base branch", obs.BaseBranch, ""},
		{"remote name", obs.RemoteName, ""},
		{"pull request title", title, ""},
		{"pull request body", body, bodyAllows},
	}
	for _, f := range obs.Boundary.Git.ActiveCleanFilters {
		names = append(names, struct{ what, value, allow string }{"clean filter", f, ""})
	}
	for _, n := range names {
		if why := validate.HiddenProblem(n.value, n.allow); why != "" {
			return &local.Refusal{Code: local.CodeHiddenCharacter, Message: fmt.Sprintf(
				"%s %s %s, which the approval screen cannot show as written; choose a name without it",
				n.what, escapedExcerpt(n.value, n.allow), why)}
		}
	}
	return nil
}

// escapedExcerpt quotes s with every non-ASCII byte escaped, so the message
// shows exactly what is there; a long text (a PR body) is cut to the part
// around its first hidden character.
func escapedExcerpt(s, allow string) string {
	const keep = 32
	if len(s) <= 2*keep {
		return strconv.QuoteToASCII(s)
	}
	at := 0
	for i, r := range s {
		if (validate.Hidden(r) && !strings.ContainsRune(allow, r)) || r == utf8.RuneError {
			at = i
			break
		}
	}
	from, to := max(at-keep, 0), min(at+keep, len(s))
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	out := strconv.QuoteToASCII(s[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(s) {
		out += "…"
	}
	return out
}
