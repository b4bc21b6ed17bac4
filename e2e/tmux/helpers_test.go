package tmux

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/statestore"
)

var binary string

// TestMain builds the real binary once (the watch test runs it; the demo
// test runs `make demo`, which builds its own).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "prloop-tmux-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gh-prloop")
	build := exec.Command("go", "build", "-o", binary, "github.com/prloop/gh-prloop/cmd/gh-prloop")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building gh-prloop:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireTmux skips without tmux, unless PRLOOP_REQUIRE_TMUX says this
// machine must have it (CI), when a missing tmux fails.
func requireTmux(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("PRLOOP_REQUIRE_TMUX") != "" {
			t.Fatalf("tmux is required here (PRLOOP_REQUIRE_TMUX is set) but not found: %v", err)
		}
		t.Skip("tmux not installed (set PRLOOP_REQUIRE_TMUX=1 to make this a failure)")
	}
	return path
}

// terminal is one tmux server with one 120×40 window: a real terminal.
type terminal struct {
	t      *testing.T
	tmux   string
	socket string
	done   string // the file the shell writes the command's exit status to
}

const (
	cols = 120
	rows = 40
)

// newTerminal starts a private tmux server running shell command cmdline
// in dir with exactly env (the pane's processes inherit the server's
// environment). When cmdline ends its status is written to a file and the
// pane stays, so that its last screen can still be read.
func newTerminal(t *testing.T, dir string, env []string, cmdline string) *terminal {
	t.Helper()
	tm := requireTmux(t)
	tmp := t.TempDir()
	conf := filepath.Join(tmp, "tmux.conf")
	// No user configuration; scrollback long enough for the whole demo.
	if err := os.WriteFile(conf, []byte("set -g history-limit 100000\nset -g status off\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, tmux: tm, socket: filepath.Join(tmp, "sock"), done: filepath.Join(tmp, "exit-status")}
	wrapped := fmt.Sprintf("%s; echo $? > %s; exec sleep 3600", cmdline, shellQuote(term.done))
	cmd := exec.Command(tm, "-S", term.socket, "-f", conf, "new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-c", dir, wrapped)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		// kill-server hangs up the pane: the demo's trap stops its simulator.
		_ = exec.Command(tm, "-S", term.socket, "kill-server").Run()
	})
	return term
}

func (term *terminal) run(args ...string) string {
	term.t.Helper()
	out, err := exec.Command(term.tmux, append([]string{"-S", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the terminal shows now (the alternate screen while a
// console has it), as plain text.
func (term *terminal) screen() string { return term.run("capture-pane", "-p", "-J") }

// transcript is the screen with its scrollback: once the command ended,
// everything printed outside the consoles.
func (term *terminal) transcript() string {
	return term.run("capture-pane", "-p", "-J", "-S", "-", "-E", "-")
}

// typeText types s literally, then enter.
func (term *terminal) typeLine(s string) {
	term.t.Helper()
	term.run("send-keys", "-l", s)
	term.run("send-keys", "Enter")
}

func (term *terminal) press(key string) { term.run("send-keys", key) }

// exitStatus is the command's exit status once it ended.
func (term *terminal) exitStatus() (string, bool) {
	b, err := os.ReadFile(term.done)
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// waitExit polls until the command ends (at most limit reads) and returns
// its exit status; what names the key that should have ended it.
func (term *terminal) waitExit(what string, limit int) string {
	term.t.Helper()
	for n := 0; ; n++ {
		if st, ok := term.exitStatus(); ok {
			return st
		}
		if n > limit {
			term.t.Fatalf("%s did not end the command:\n%s", what, term.screen())
		}
		time.Sleep(pollEvery)
	}
}

// pollEvery is the pause between two reads of the screen; limit bounds
// how many reads a wait makes. Nothing is asserted about time: the bound
// only stops a test that would otherwise hang.
const pollEvery = 200 * time.Millisecond

// waitScreen polls until ok accepts the screen, at most limit reads.
func (term *terminal) waitScreen(what string, limit int, ok func(string) bool) string {
	term.t.Helper()
	var s string
	for range limit {
		s = term.screen()
		if ok(s) {
			return s
		}
		time.Sleep(pollEvery)
	}
	term.t.Fatalf("the terminal never showed %s; it shows:\n%s", what, s)
	return ""
}

// planHash is the 64-character hash an approval console shows in eight
// groups of eight ("Plan hash  6b947d9a 03f1b5bf …").
var planHash = regexp.MustCompile(`(?m)hash\s+([0-9a-f]{8}(?: [0-9a-f]{8}){7})\s*$`)

// shownHash is the plan hash on an approval console's screen, "" when the
// screen is not one.
func shownHash(screen string) string {
	if !strings.Contains(screen, "64-character plan hash") {
		return ""
	}
	m := planHash.FindStringSubmatch(screen)
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], " ", "")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// baseEnv is a clean environment: PATH (go, git, python3, tmux), HOME,
// the locale, and TMPDIR; no token, no GH_FORCE_TTY, no NO_COLOR.
func baseEnv(t *testing.T, home string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "TMPDIR=" + t.TempDir(), "TERM=xterm-256color"}
	// go needs its caches; keep them where they are so make demo builds fast.
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "PYENV_ROOT", "PYENV_VERSION"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE"} {
		if os.Getenv(k) == "" {
			if v, err := exec.Command("go", "env", k).Output(); err == nil {
				env = append(env, k+"="+strings.TrimSpace(string(v)))
			}
		}
	}
	return env
}

// simWorld starts the standalone simulator with opts (Dir filled in) and
// returns it with the environment that points gh-prloop at it and at a
// fresh state directory.
func simWorld(t *testing.T, opts standalone.Options) (*standalone.Sim, []string, string) {
	t.Helper()
	opts.Dir = t.TempDir()
	sim, err := standalone.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	state := t.TempDir()
	env := append(baseEnv(t, state), statestore.EnvStateDir+"="+state)
	for k, v := range sim.Info().Env {
		env = append(env, k+"="+v)
	}
	return sim, env, state
}
