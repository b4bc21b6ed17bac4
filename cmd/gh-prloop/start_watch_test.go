package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair (Linux): a real terminal for the
// checks that ask the kernel, not GH_FORCE_TTY.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	return slave
}

// start goes on as the watch console only for a person at a terminal:
// stdin and stdout both terminals, no --json, no --no-watch.
func TestStartWatchesOnlyOnATerminal(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	tty := openPTY(t)
	cmd := func(in, out any) *cobra.Command {
		c := &cobra.Command{}
		switch in := in.(type) {
		case *os.File:
			c.SetIn(in)
		case string:
			c.SetIn(strings.NewReader(in))
		}
		switch out := out.(type) {
		case *os.File:
			c.SetOut(out)
		default:
			c.SetOut(&strings.Builder{})
		}
		return c
	}
	if !startWatches(cmd(tty, tty), false, false) {
		t.Error("a terminal start does not open the watch console")
	}
	for name, c := range map[string]struct {
		cmd             *cobra.Command
		asJSON, noWatch bool
	}{
		"--no-watch":      {cmd(tty, tty), false, true},
		"--json":          {cmd(tty, tty), true, false},
		"stdin not a tty": {cmd("", tty), false, false},
		"stdout a pipe":   {cmd(tty, nil), false, false},
	} {
		if startWatches(c.cmd, c.asJSON, c.noWatch) {
			t.Errorf("%s: start would open the watch console", name)
		}
	}
}
