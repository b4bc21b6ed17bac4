package schedule

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// System returns the Env of this machine: this executable as the OS names
// it (a symlink is kept, so that upgrading what it points to keeps the
// timer working), the real environment, and service-manager commands run
// with exec.
func System(stateRoot, rrule string) (Env, error) {
	exe, err := os.Executable()
	if err != nil {
		return Env{}, fmt.Errorf("schedule: cannot find this executable: %w", err)
	}
	if !filepath.IsAbs(exe) {
		return Env{}, fmt.Errorf("schedule: this executable's path %q is not absolute", exe)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("schedule: no home directory: %w", err)
	}
	return Env{
		GOOS: runtime.GOOS, Getenv: os.Getenv, Home: home, UID: os.Getuid(),
		Executable: exe, StateRoot: stateRoot, RRule: rrule,
		LookPath: exec.LookPath, Run: runCommand,
	}, nil
}

// runCommand runs a service manager's tool (argv[0] looked up on PATH).
func runCommand(ctx context.Context, argv []string) ([]byte, error) {
	return exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
}
