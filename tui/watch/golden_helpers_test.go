package watch

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

func requireGolden(t *testing.T, out string) {
	t.Helper()
	golden.RequireEqual(t, []byte(out))
}
