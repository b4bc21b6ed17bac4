package remediate_test

import (
	"os"
	"testing"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain makes this test binary a sandbox helper: the fixer and the
// validation commands run through it by re-executing this program.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
