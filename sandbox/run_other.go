//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// Outside Linux there is no namespace or Landlock: only the minimal
// environment, the working directory and the timeout are given, and a plan
// must carry an explicit risk acceptance naming the rest.
func Probe(ctx context.Context) Capabilities {
	c := Capabilities{MinimalEnv: true}
	why := "not implemented on " + runtime.GOOS + " (sandbox-exec may come later)"
	c.miss(GuaranteeNoNetwork, why)
	c.miss(GuaranteeWritesConfined, why)
	return c
}

func helper() int { return 127 }

// Run runs s only when every guarantee this platform lacks was accepted.
func Run(ctx context.Context, s Spec) (Result, error) {
	if err := s.normalize(); err != nil {
		return Result{}, err
	}
	if err := check(Probe(ctx), s); err != nil {
		return Result{}, err
	}
	tmp, err := os.MkdirTemp("", "gh-prloop-sandbox-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		return Result{}, err
	}
	out := newTailBuffer(s.OutputLimit, s.Tail)
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, s.Argv[0], s.Argv[1:]...)
	cmd.Env = append(minimalEnv(s.Argv[0], tmp, home), s.Env...)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	werr := cmd.Run()
	res := Result{Elapsed: time.Since(start), ExitCode: -1}
	res.Output, res.Truncated = out.result()
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if tctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		res.TimedOut = true
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return res, werr
	}
	return res, nil
}
