package schedule

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/prloop/gh-prloop/statestore"
)

// Names of what install writes.
const (
	ServiceName  = "gh-prloop-wakeup.service"
	TimerName    = "gh-prloop-wakeup.timer"
	LaunchdLabel = "io.github.prloop.wakeup"
	LogDir       = "logs"
	LogName      = "wakeup.log"
)

// WakeupArgs is what the timer runs after the executable.
var WakeupArgs = []string{"wakeup", "--all"}

// passedVars are the variables of the installing shell that the timer
// keeps, when set: where gh-prloop finds git and gh, and gh's own
// configuration. Tokens (GH_TOKEN, GITHUB_TOKEN, …) are never written to a
// unit file: the timer authenticates through gh's stored login.
var passedVars = []string{"GH_CONFIG_DIR", "GH_HOST", "PATH", "XDG_CONFIG_HOME"}

// stateDirVar makes the timer read the state root the installer chose,
// whatever XDG_STATE_HOME the service manager has.
const stateDirVar = statestore.EnvStateDir

// Env is everything install, status and remove need from the machine.
type Env struct {
	GOOS       string              // runtime.GOOS, or another for tests
	Getenv     func(string) string // the installing process's environment
	Home       string              // the user's home directory (absolute)
	UID        int                 // for launchctl's gui/<uid> domain
	Executable string              // the gh-prloop binary the timer runs (absolute)
	StateRoot  string              // statestore.Root (absolute); logs go under it
	RRule      string              // policy.HeartbeatRRule
	LookPath   func(string) (string, error)
	// Run runs argv and returns its combined output. It is only called for
	// the service manager's own tools (systemctl, launchctl, crontab).
	Run func(ctx context.Context, argv []string) ([]byte, error)
}

func (e Env) check() error {
	for name, p := range map[string]string{"executable": e.Executable, "state root": e.StateRoot, "home": e.Home} {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("schedule: the %s %q is not an absolute path", name, p)
		}
		if err := plainPath(p); err != nil {
			return fmt.Errorf("schedule: the %s: %w", name, err)
		}
	}
	if e.Getenv == nil || e.LookPath == nil || e.Run == nil {
		return errors.New("schedule: Env.Getenv, LookPath and Run are required")
	}
	return nil
}

// plainPath refuses what no unit, plist or crontab line could carry
// safely: a newline would start a new directive.
func plainPath(p string) error {
	for _, r := range p {
		if unicode.IsControl(r) {
			return fmt.Errorf("%q contains a control character", p)
		}
	}
	return nil
}

// LogFile is where the timer's output goes.
func (e Env) LogFile() string { return filepath.Join(e.StateRoot, LogDir, LogName) }

// vars are the environment the timer runs with, sorted by name:
// GH_PRLOOP_STATE_DIR (so that the timer reads the state the installer
// chose) and passedVars that are set.
func (e Env) vars() ([][2]string, error) {
	out := [][2]string{}
	names := append([]string{stateDirVar}, passedVars...)
	sort.Strings(names)
	for _, name := range names {
		v := e.Getenv(name)
		if name == stateDirVar {
			v = e.StateRoot
		}
		if v == "" {
			continue
		}
		if err := plainPath(v); err != nil {
			return nil, fmt.Errorf("schedule: %s: %w", name, err)
		}
		out = append(out, [2]string{name, v})
	}
	return out, nil
}

// configHome is $XDG_CONFIG_HOME when absolute, else ~/.config.
func (e Env) configHome() string {
	if x := e.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(e.Home, ".config")
}

// systemdUnitDir is where user units live.
func (e Env) systemdUnitDir() string { return filepath.Join(e.configHome(), "systemd", "user") }

func (e Env) launchdPlist() string {
	return filepath.Join(e.Home, "Library", "LaunchAgents", LaunchdLabel+".plist")
}

// duration formats d for a systemd time span ("2min", "90s", "1h").
func systemdSpan(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dmin", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

func joinArgv(argv []string) string { return strings.Join(argv, " ") }
