package core_test

import (
	"go/build"
	"os/exec"
	"strings"
	"testing"
)

// forbidden are imports that would let core do I/O or read a clock.
var forbidden = map[string]string{
	"net":           "network",
	"net/http":      "network",
	"os/exec":       "process execution",
	"os":            "file system and environment",
	"io/ioutil":     "file I/O",
	"syscall":       "system calls",
	"os/signal":     "signals",
	"crypto/rand":   "entropy (non-deterministic)",
	"math/rand":     "non-determinism",
	"math/rand/v2":  "non-determinism",
	"unsafe":        "unsafe memory",
	"plugin":        "dynamic loading",
	"runtime/cgo":   "cgo",
	"path/filepath": "host file paths",
}

// TestCoreImportsNoIO walks the import graph of every non-test package under
// core (transitively, stopping at the standard library boundary) and fails if
// any reaches a forbidden package. time is allowed (parsing and arithmetic),
// but time.Now is checked separately by TestCoreNeverReadsClock.
func TestCoreImportsNoIO(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{join .Imports \",\"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/prloop/gh-prloop/"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], mod+"core") {
			continue
		}
		checked++
		if len(f) < 3 {
			continue
		}
		for _, imp := range strings.Split(f[2], ",") {
			if why, bad := forbidden[imp]; bad {
				t.Errorf("%s imports %s (%s); core must stay pure", f[0], imp, why)
			}
			if strings.HasPrefix(imp, mod) && !strings.HasPrefix(imp, mod+"core") {
				t.Errorf("%s imports %s; core calls out to no other package of the module", f[0], imp)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d core packages found; the walk is broken", checked)
	}
}

// TestCoreNeverReadsClock scans core's non-test sources for clock reads.
func TestCoreNeverReadsClock(t *testing.T) {
	pkgs, err := exec.Command("go", "list", "-f", "{{.Dir}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dir := range strings.Fields(string(pkgs)) {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range p.GoFiles {
			src, err := readFile(dir + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"time.Now(", "time.Since(", "time.Until(", "time.Sleep(", "time.After(", "time.Tick("} {
				if strings.Contains(src, bad) {
					t.Errorf("%s/%s calls %s; core receives time as data", dir, name, bad)
				}
			}
		}
	}
}
