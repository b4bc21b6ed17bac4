package sandbox

import (
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
