package testbed_test

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper: planning probes the
// sandbox by re-executing the current program. Add any other setup here
// rather than in a second TestMain.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
