package statestore

import (
	"errors"
	"fmt"
	"path/filepath"
)

// EnvStateDir overrides the state root. It exists for tests, demos and
// users who keep state on another volume.
const EnvStateDir = "GH_PRLOOP_STATE_DIR"

// Root returns the state root: $GH_PRLOOP_STATE_DIR if set (made absolute
// against the working directory), else $XDG_STATE_HOME/gh-prloop when
// XDG_STATE_HOME is an absolute path (the XDG spec says to ignore a relative
// one), else ~/.local/state/gh-prloop. getenv and home are injected so that
// tests never read the real environment.
func Root(getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv(EnvStateDir); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("statestore: %s=%q: %w", EnvStateDir, d, err)
		}
		return abs, nil
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gh-prloop"), nil
	}
	h, err := home()
	if err != nil {
		return "", fmt.Errorf("statestore: no state directory: set %s or XDG_STATE_HOME: %w", EnvStateDir, err)
	}
	if h == "" || !filepath.IsAbs(h) {
		return "", errors.New("statestore: no state directory: the home directory is unknown; set " + EnvStateDir)
	}
	return filepath.Join(h, ".local", "state", "gh-prloop"), nil
}
