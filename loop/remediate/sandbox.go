package remediate

import (
	"context"
	"io"
	"time"

	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/sandbox"
)

// FixerSandbox runs the fixer through package sandbox: argv exec, minimal
// environment, the checkout as working directory, writes confined to it
// (Landlock) and a private temporary directory. A fixer such as `codex
// exec` needs the network, so it keeps it; Env and AllowWrites pass what
// such a fixer cannot do without (e.g. CODEX_HOME and its directory).
type FixerSandbox struct {
	Timeout     time.Duration
	Env         []string
	AllowWrites []string
	NoNetwork   bool
}

// Run implements Runner.
func (s FixerSandbox) Run(ctx context.Context, argv []string, dir string, acceptMissing []string, tail io.Writer) (initial.CommandResult, error) {
	r, err := sandbox.Run(ctx, sandbox.Spec{Argv: argv, Dir: dir, Timeout: s.Timeout, Tail: tail, Env: s.Env,
		AllowWrites: s.AllowWrites, AllowNetwork: !s.NoNetwork, AcceptMissing: acceptMissing})
	if err != nil {
		return initial.CommandResult{}, err
	}
	return initial.CommandResult{ExitCode: r.ExitCode, Output: r.Output, Truncated: r.Truncated, TimedOut: r.TimedOut}, nil
}
