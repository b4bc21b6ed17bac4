package wakeup_test

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper (planning probes it).
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
