package ghclient

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cli/go-gh/v2/pkg/auth"
)

// ErrNoToken means no token is configured for the host. Match it with
// errors.Is; the concrete error is *NoTokenError.
var ErrNoToken = errors.New("no GitHub token")

// NoTokenError names the host that has no token. Its message is what the CLI
// prints after "gh-prloop: " before exiting 4.
type NoTokenError struct{ Host string }

func (e *NoTokenError) Error() string {
	envVar := "GH_TOKEN"
	if auth.IsEnterprise(e.Host) {
		envVar = "GH_ENTERPRISE_TOKEN"
	}
	return fmt.Sprintf("not logged in to %s. Run `gh auth login` or set %s.", e.Host, envVar)
}

// Is makes errors.Is(err, ErrNoToken) hold.
func (e *NoTokenError) Is(target error) bool { return target == ErrNoToken }

// resolveAuth fills host and token exactly as gh does: GH_HOST or the single
// host in hosts.yml, else github.com; then GH_TOKEN / GITHUB_TOKEN (or the
// enterprise variables), hosts.yml, and finally `gh auth token` for keyring
// storage. An explicit token is used as given.
func resolveAuth(host, token string) (string, string, error) {
	if host == "" {
		host, _ = auth.DefaultHost()
	}
	host = strings.ToLower(strings.TrimSpace(host))
	if token == "" {
		token, _ = auth.TokenForHost(host)
	}
	if token == "" {
		return host, "", &NoTokenError{Host: host}
	}
	return host, token, nil
}

// redactor hides the token in any error text that could reach a terminal or
// a log, even if a remote server echoed it back.
type redactor struct{ secret string }

func (r redactor) err(err error) error {
	if err == nil || r.secret == "" || !strings.Contains(err.Error(), r.secret) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), r.secret, "[REDACTED]"), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
