package initial

import (
	"context"
	"io"
	"time"

	"github.com/prloop/gh-prloop/sandbox"
)

// Sandbox runs validation commands through package sandbox: argv exec, a
// minimal environment, the checkout as working directory, no network,
// writes confined to the checkout and a private temporary directory. It
// errors (never downgrades) when the isolation cannot be delivered; only
// the guarantees the approved risk record accepted may be missing.
type Sandbox struct {
	Timeout     time.Duration // 0: sandbox.DefaultTimeout
	OutputLimit int64         // 0: sandbox.DefaultOutputLimit
}

// Run implements Commands.
func (s Sandbox) Run(ctx context.Context, argv []string, dir string, acceptMissing []string, tail io.Writer) (CommandResult, error) {
	r, err := sandbox.Run(ctx, sandbox.Spec{Argv: argv, Dir: dir, Timeout: s.Timeout, OutputLimit: s.OutputLimit, Tail: tail, AcceptMissing: acceptMissing})
	if err != nil {
		return CommandResult{}, err
	}
	return CommandResult{ExitCode: r.ExitCode, Output: r.Output, Truncated: r.Truncated, TimedOut: r.TimedOut}, nil
}
