// Command gh-prloop is a terminal approval console for the Codex pull-request
// review loop. It is usable standalone or as the gh extension `gh prloop`.
// This package only wires cobra commands to the packages that do the work.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

func main() {
	// First: in the sandbox's re-executed helper this applies the isolation
	// and execs the validation command; otherwise it returns at once.
	sandbox.Main()
	err := newRootCmd(os.Stdin, os.Stdout, os.Stderr).Execute()
	os.Exit(exitCode(err, os.Stderr))
}

// exitError carries a gh-style exit status (0 ok, 1 error, 2 usage/cancelled,
// 4 auth required) and whether its message was already shown.
type exitError struct {
	code   int
	msg    string
	silent bool
}

func (e *exitError) Error() string { return e.msg }

func exitWith(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

func silentExit(code int) error { return &exitError{code: code, silent: true} }

func exitCode(err error, stderr *os.File) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if !ee.silent && ee.msg != "" {
			fmt.Fprintln(stderr, "gh-prloop:", sanitize.Text(ee.msg))
		}
		return ee.code
	}
	// Errors can quote remote text (a server's message, a branch name), so
	// they are sanitized like everything else that reaches the terminal.
	fmt.Fprintln(stderr, "gh-prloop:", sanitize.Text(err.Error()))
	return 1
}
