package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// nsFlags are the namespaces every helper starts in when the machine has
// them: a user namespace (so no privilege is needed), a PID namespace (so
// killing its first process kills all it started, even a daemon that left
// the process group) and, unless the Spec allows the network, a network
// namespace whose only interface is a loopback that is down.
const (
	nsBase    = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	nsNetwork = syscall.CLONE_NEWNET
)

// waitDelay bounds how long Run waits for the output pipe after the
// command is gone, in case something outside the PID namespace (there is
// none when namespaces work) still holds it.
const waitDelay = 5 * time.Second

var errNotHooked = errors.New("sandbox: sandbox.Main is not called first in this program's main (or TestMain), so the isolating helper cannot run")

// machine is what Run needs to know, found once per process by a probe.
type machine struct {
	caps       Capabilities
	namespaces bool // helpers can start in nsBase|nsNetwork
	landlock   bool // the helper can apply the ruleset and it denies writes
}

var probeOnce = sync.OnceValue(func() machine { return probe(context.Background()) })

// Probe finds out, by trying, which guarantees this machine can give: a
// helper in fresh namespaces under the Landlock ruleset writes inside and
// outside its allowed directory and dials a listener on 127.0.0.1. A
// guarantee holds only when the forbidden attempt fails and the allowed
// one succeeds.
func Probe(ctx context.Context) Capabilities { return probe(ctx).caps }

func probe(ctx context.Context) machine {
	m := machine{caps: Capabilities{MinimalEnv: true}}
	if !hooked.Load() {
		m.caps.miss(GuaranteeNoNetwork, errNotHooked.Error())
		m.caps.miss(GuaranteeWritesConfined, errNotHooked.Error())
		return m
	}
	report, nsErr := probeHelper(ctx, nsBase|nsNetwork)
	m.namespaces = nsErr == nil
	if nsErr != nil {
		// Without namespaces, Landlock alone may still work.
		report, _ = probeHelper(ctx, 0)
	}
	switch {
	case nsErr != nil:
		m.caps.miss(GuaranteeNoNetwork, "cannot create user, PID and network namespaces: "+nsErr.Error())
	case report.Dialed:
		m.caps.miss(GuaranteeNoNetwork, "a helper in a new network namespace still reached 127.0.0.1")
	default:
		m.caps.NoNetwork = true
	}
	switch {
	case report.LandlockError != "":
		m.caps.miss(GuaranteeWritesConfined, "Landlock (ABI 3 or later) cannot be applied: "+report.LandlockError)
	case report.WroteOutside:
		m.caps.miss(GuaranteeWritesConfined, "a helper under Landlock still wrote outside its allowed directories")
	case !report.WroteInside:
		m.caps.miss(GuaranteeWritesConfined, "a helper under Landlock could not write in its allowed directory: "+report.InsideError)
	default:
		m.caps.WritesConfined, m.landlock = true, true
	}
	return m
}

// probeHelper runs one probing helper in the namespaces ns and returns
// its report; an error means the helper could not be started or did not
// report.
func probeHelper(ctx context.Context, ns uintptr) (probeReport, error) {
	var r probeReport
	inside, err := os.MkdirTemp("", "gh-prloop-probe-in-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(inside)
	outside, err := os.MkdirTemp("", "gh-prloop-probe-out-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(outside)
	ln, err := listenLoopback()
	if err != nil {
		return r, err
	}
	defer ln.Close()
	cfg := childConfig{Dir: inside, Writable: []string{inside}, Landlock: true, Probe: &probeConfig{Outside: outside, Dial: ln.Addr().String()}}
	var out strings.Builder
	h, err := startHelper(ctx, cfg, ns, &out)
	if err != nil {
		return r, err
	}
	status, _ := io.ReadAll(h.status)
	h.status.Close()
	werr := h.cmd.Wait()
	if len(status) == 0 {
		return r, fmt.Errorf("the helper reported nothing (%v): %s", werr, strings.TrimSpace(out.String()))
	}
	if err := json.Unmarshal(status, &r); err != nil {
		return r, fmt.Errorf("the helper's report %q: %v", status, err)
	}
	if ln.accepted() > 0 {
		r.Dialed = true // the listener saw it, whatever the helper thought
	}
	return r, nil
}

type helperProc struct {
	cmd    *exec.Cmd
	status *os.File // EOF once the command was exec'd; an error message otherwise
}

// startHelper re-executes this program as the helper in namespaces ns,
// hands it cfg and returns once it runs. Output goes to out.
func startHelper(ctx context.Context, cfg childConfig, ns uintptr, out io.Writer) (*helperProc, error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer cfgR.Close()
	stR, stW, err := os.Pipe()
	if err != nil {
		cfgW.Close()
		return nil, err
	}
	defer stW.Close()
	cmd := exec.CommandContext(ctx, "/proc/self/exe", childArg)
	cmd.Env = []string{childEnv + "=1"}
	cmd.Dir = cfg.Dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{cfgR, stW}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: ns}
	if ns&syscall.CLONE_NEWUSER != 0 {
		uid, gid := os.Getuid(), os.Getgid()
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	cmd.SysProcAttr = attr
	// The whole process group; with a PID namespace, killing its first
	// process kills everything in it anyway.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		cfgW.Close()
		stR.Close()
		return nil, err
	}
	err = json.NewEncoder(cfgW).Encode(cfg)
	cfgW.Close()
	if err != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		stR.Close()
		return nil, fmt.Errorf("sandbox: handing the helper its config: %w", err)
	}
	return &helperProc{cmd: cmd, status: stR}, nil
}

// Run runs s.Argv under the isolation s needs. It returns an error, and
// runs nothing, when that isolation cannot be delivered here (wrapping
// ErrUnavailable) or the helper could not set it up; a command that ran
// and failed is a Result with its exit code, not an error.
func Run(ctx context.Context, s Spec) (Result, error) {
	if err := s.normalize(); err != nil {
		return Result{}, err
	}
	if !hooked.Load() {
		return Result{}, errNotHooked
	}
	m := probeOnce()
	if err := check(m.caps, s); err != nil {
		return Result{}, err
	}
	tmp, err := os.MkdirTemp("", "gh-prloop-sandbox-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		return Result{}, err
	}
	cfg := childConfig{
		Argv:     slices.Clone(s.Argv),
		Env:      append(minimalEnv(s.Argv[0], tmp, home), s.Env...),
		Dir:      s.Dir,
		Writable: append([]string{s.Dir, tmp}, s.AllowWrites...),
		Landlock: m.landlock,
	}
	var ns uintptr
	if m.namespaces {
		ns = nsBase
		if !s.AllowNetwork {
			ns |= nsNetwork
		}
	}
	out := newTailBuffer(s.OutputLimit, s.Tail)
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	start := time.Now()
	h, err := startHelper(tctx, cfg, ns, out)
	if err != nil {
		return Result{}, fmt.Errorf("%w: starting the helper: %v", ErrUnavailable, err)
	}
	status, _ := io.ReadAll(h.status)
	h.status.Close()
	werr := h.cmd.Wait()
	res := Result{Elapsed: time.Since(start), ExitCode: -1}
	res.Output, res.Truncated = out.result()
	if len(status) > 0 {
		return res, fmt.Errorf("%w: %s", ErrUnavailable, status)
	}
	if st := h.cmd.ProcessState; st != nil {
		res.ExitCode = st.ExitCode()
	}
	if tctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		res.TimedOut = true
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return res, werr
	}
	return res, nil
}
