package watch

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
)

var sizes = [][2]int{{80, 24}, {120, 40}}

// goldenRun drives the real program (root router included) to the loop's
// first screen and compares the final frame with the golden file.
func goldenRun(t *testing.T, l status.Loop, want ...string) {
	for _, sz := range sizes {
		t.Run(sizeName(sz), func(t *testing.T) {
			st := testutil.Styles()
			m, _ := newModel(t, Config{Load: constant(l)})
			m.st = st
			tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(sz[0], sz[1]))
			waitFor(t, tm, want...)
			out := finalView(t, tm)
			assertFits(t, out, sz[0], sz[1])
			assertKeyBar(t, out)
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func sizeName(sz [2]int) string {
	return strings.Join([]string{itoa(int64(sz[0])), itoa(int64(sz[1]))}, "x")
}

func TestGoldenWaiting(t *testing.T) {
	goldenRun(t, waiting(), "WAITING", "next wakeup in 1m 23s", "deadline in 20m 05s")
}

func TestGoldenCodexRunning(t *testing.T) {
	goldenRun(t, codexRunning(), "CODEX RUNNING", "Codex is reviewing")
}

func TestGoldenAwaitingApproval(t *testing.T) {
	goldenRun(t, awaitingApproval(), "APPROVAL NEEDED", "gh-prloop approve")
}

func TestGoldenExecuting(t *testing.T) {
	goldenRun(t, executing(), "EXECUTING", "Operations")
}

func TestGoldenHalted(t *testing.T) {
	for _, c := range haltCases {
		t.Run(c.name, func(t *testing.T) {
			goldenRun(t, halted(c.reason, c.message), "HALTED", status.HaltWords(c.reason))
		})
	}
}

func TestGoldenFinalized(t *testing.T) {
	goldenRun(t, finalized(), "FINALIZED", "finalized at")
}
