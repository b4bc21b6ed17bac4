package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// systemDirs follow the executable's own directory on PATH.
var systemDirs = []string{"/usr/local/bin", "/usr/bin", "/bin"}

// minimalEnv is the command's whole environment: nothing is inherited, so
// no GH_/GITHUB_ variable, token, proxy or GIT_* setting can reach it.
func minimalEnv(exe, tmp, home string) []string {
	dirs := []string{filepath.Dir(exe)}
	for _, d := range systemDirs {
		if d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	return []string{
		"PATH=" + strings.Join(dirs, ":"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
	}
}

// checkExtraEnv refuses a Spec.Env entry that is malformed, overrides the
// minimal environment, or is named like something that carries a secret
// or redirects traffic.
func checkExtraEnv(kv string) error {
	name, _, ok := strings.Cut(kv, "=")
	if !ok || name == "" || strings.ContainsAny(kv, "\x00") {
		return errors.New("want NAME=value")
	}
	upper := strings.ToUpper(name)
	switch upper {
	case "PATH", "HOME", "TMPDIR", "LANG", "LD_PRELOAD", "LD_LIBRARY_PATH":
		return fmt.Errorf("%s is set by the sandbox", name)
	}
	for _, p := range []string{"GH_", "GITHUB_", "GIT_"} {
		if strings.HasPrefix(upper, p) {
			return fmt.Errorf("%s: no %s variable reaches a sandboxed command", name, p)
		}
	}
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "KEY", "PROXY", "CREDENTIAL"} {
		if strings.Contains(upper, w) {
			return fmt.Errorf("%s looks like it carries a credential or a proxy", name)
		}
	}
	return nil
}
