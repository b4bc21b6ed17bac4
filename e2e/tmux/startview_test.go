package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/standalone"
)

// start's approval console shows every approved byte that the plan only
// hashes, as plan's does: the pull request's body is on the screen (it
// once showed the title alone, and would have hidden a risk record too).
// Esc cancels: nothing is approved or executed.
func TestStartConsoleShowsTheBody(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	sim, env, _ := simWorld(t, standalone.Options{})
	body := filepath.Join(t.TempDir(), "body.md")
	if err := os.WriteFile(body, []byte("Budgets retries per client so that a flapping upstream is not hammered.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, sim.Info().Checkout, env, shellQuote(binary)+" start --mode approval-gated --no-watch --title 'Add a retry budget' --body-file "+shellQuote(body))
	term.waitScreen("start's approval console with the body", 600, func(s string) bool {
		return shownHash(s) != "" && strings.Contains(s, "Add a retry budget") && strings.Contains(s, "flapping upstream is not hammered")
	})
	term.press("Escape")
	if st := term.waitExit("esc", 600); st != "2" {
		t.Fatalf("esc: exit %s, want 2 (cancelled)\n%s", st, term.transcript())
	}
}
