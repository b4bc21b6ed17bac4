package main

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper too: plan probes the
// sandbox, and start/apply run validation commands through it, both by
// re-executing the current program. Add any other setup here rather than
// in a second TestMain.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
