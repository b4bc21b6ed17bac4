package finalize_test

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper (the world's initial
// plan and fixer run through it).
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
