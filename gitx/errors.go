package gitx

import (
	"fmt"
	"regexp"
	"strings"
)

// Error is a failed git command. It never holds a credential: the runner
// never has one, and Stderr is redacted in case git echoes a URL with
// userinfo.
type Error struct {
	Subcommand string
	Args       []string
	Dir        string
	ExitCode   int    // -1 when git did not exit normally
	Stderr     string // trimmed, redacted, at most stderrLimit bytes
	Err        error  // context or exec failure, if that is the cause
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "git %s", e.Subcommand)
	for _, a := range e.Args {
		fmt.Fprintf(&b, " %q", redact(a))
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	} else {
		fmt.Fprintf(&b, ": exit status %d", e.ExitCode)
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, ": %s", e.Stderr)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

const stderrLimit = 4 << 10

// limitedBuffer keeps the first stderrLimit bytes; git can be chatty and only
// the start of its complaint is useful in an error.
type limitedBuffer struct {
	b         []byte
	truncated bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	room := stderrLimit - len(l.b)
	if room > 0 {
		if len(p) > room {
			l.b = append(l.b, p[:room]...)
			l.truncated = true
		} else {
			l.b = append(l.b, p...)
		}
	} else if len(p) > 0 {
		l.truncated = true
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	s := strings.TrimSpace(string(l.b))
	if l.truncated {
		s += " [...]"
	}
	return s
}

var (
	userinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]+@`)
	// GitHub token shapes (classic, fine-grained, app and OAuth tokens).
	tokenRE = regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`)
)

// redact removes URL userinfo and anything shaped like a GitHub token.
func redact(s string) string {
	s = userinfoRE.ReplaceAllString(s, "${1}[REDACTED]@")
	return tokenRE.ReplaceAllString(s, "[REDACTED]")
}
