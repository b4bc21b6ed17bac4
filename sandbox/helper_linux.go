package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// helper runs in the re-executed process, already inside the namespaces
// Run asked for. fd 3 carries the config; fd 4 is close-on-exec, so Run
// reads EOF on it exactly when the exec succeeded, and an error message
// otherwise.
func helper() int {
	cfgFile, status := os.NewFile(3, "sandbox-config"), os.NewFile(4, "sandbox-status")
	if cfgFile == nil || status == nil {
		fmt.Fprintln(os.Stderr, "sandbox helper: started without its pipes")
		return 127
	}
	syscall.CloseOnExec(4)
	fail := func(format string, args ...any) int {
		fmt.Fprintf(status, format, args...)
		return 127
	}
	var c childConfig
	err := json.NewDecoder(cfgFile).Decode(&c)
	cfgFile.Close()
	if err != nil {
		return fail("sandbox helper: reading the config: %v", err)
	}
	var llErr error
	if c.Landlock {
		llErr = restrictWrites(c.Writable)
		if llErr != nil && c.Probe == nil {
			return fail("sandbox helper: Landlock: %v", llErr)
		}
	}
	if c.Probe != nil {
		r := probeFromInside(c)
		if llErr != nil {
			r.LandlockError = llErr.Error()
		}
		json.NewEncoder(status).Encode(r)
		return 0
	}
	if err := os.Chdir(c.Dir); err != nil {
		return fail("sandbox helper: %v", err)
	}
	err = syscall.Exec(c.Argv[0], c.Argv, c.Env)
	return fail("sandbox helper: exec %s: %v", c.Argv[0], err)
}

// restrictWrites applies a Landlock ruleset (ABI 3: writes, removals,
// renames and truncation are all covered) under which the whole file
// system stays readable and executable and only writable lists writable
// directories. It holds for every thread and survives exec.
//
// Only the calling thread is restricted, which is locked to this goroutine
// for good: the helper then execs (or probes) from this very thread, and
// exec hands the new program this thread's domain. go-landlock's
// all-threads path (libpsx) hangs in a new PID namespace.
func restrictWrites(writable []string) error {
	fd, flags, err := landlock.V3.NewRulesetFD(
		landlock.RODirs("/"),
		landlock.RWDirs(writable...),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full").IgnoreIfMissing(),
	)
	if err != nil {
		return err
	}
	if fd < 0 {
		return errors.New("no ruleset to enforce")
	}
	defer unix.Close(fd)
	runtime.LockOSThread() // never unlocked
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	return llsys.LandlockRestrictSelf(fd, flags)
}

// probeFromInside tries what the isolation must prevent and what it must
// allow, from inside it.
func probeFromInside(c childConfig) probeReport {
	var r probeReport
	if len(c.Writable) > 0 {
		f := filepath.Join(c.Writable[0], "probe-inside")
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			r.InsideError = err.Error()
		} else {
			r.WroteInside = true
		}
	}
	if err := os.WriteFile(filepath.Join(c.Probe.Outside, "probe-outside"), []byte("x"), 0o600); err != nil {
		r.OutsideError = err.Error()
	} else {
		r.WroteOutside = true
	}
	conn, err := net.DialTimeout("tcp", c.Probe.Dial, 5*time.Second)
	if err != nil {
		r.DialError = err.Error()
	} else {
		r.Dialed = true
		conn.Close()
	}
	return r
}
