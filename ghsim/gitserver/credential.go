package gitserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CredentialHelper writes, under dir, a credential helper for this server and
// returns the credential.helper value that runs it. The token is stored in a
// file (mode 0600) the script reads, so it never appears in argv, in the
// environment, or in the invocation digest that names the helper.
func (s *Server) CredentialHelper(dir string) (string, error) {
	script, err := s.CredentialScript(dir)
	if err != nil {
		return "", err
	}
	return "!" + shQuote(script), nil
}

// CredentialScript writes the helper of CredentialHelper under dir and
// returns the script's absolute path, for a process that builds its own
// credential.helper value (the standalone simulator's environment).
func (s *Server) CredentialScript(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(s.opts.Token), 0o600); err != nil {
		return "", err
	}
	script := filepath.Join(dir, "credential-helper.sh")
	body := fmt.Sprintf(`#!/bin/sh
# git calls "get", "store" or "erase"; only "get" answers.
[ "$1" = get ] || exit 0
cat >/dev/null
echo username=x-access-token
printf 'password=%%s\n' "$(cat %s)"
`, shQuote(tokenFile))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		return "", err
	}
	return script, nil
}

func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
