package initial_test

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper: planning probes the
// sandbox and run-validation runs commands through it, both by
// re-executing the current program.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
