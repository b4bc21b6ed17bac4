package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain is the helper hook (sandbox.Main) plus the test's own command:
// `<test binary> sandbox-test-command dial ADDR | write FILE | env` is
// what the sandboxed commands below run, so they need no shell or tool.
func TestMain(m *testing.M) {
	Main()
	if len(os.Args) >= 3 && os.Args[1] == "sandbox-test-command" {
		os.Exit(testCommand(os.Args[2:]))
	}
	os.Exit(m.Run())
}

func testCommand(args []string) int {
	switch args[0] {
	case "dial":
		c, err := net.DialTimeout("tcp", args[1], 5*time.Second)
		if err != nil {
			fmt.Println("dial failed:", err)
			return 1
		}
		c.Close()
		fmt.Println("dialed")
		return 0
	case "write":
		if err := os.WriteFile(args[1], []byte("x"), 0o644); err != nil {
			fmt.Println("write failed:", err)
			return 1
		}
		fmt.Println("wrote")
		return 0
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		wd, _ := os.Getwd()
		fmt.Println("CWD=" + wd)
		return 0
	}
	return 2
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func run(t *testing.T, s Spec) Result {
	t.Helper()
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatalf("Run %q: %v", s.Argv, err)
	}
	return res
}

// The probe is checked against reality both ways: what it claims is
// enforced, and what it says is missing is really missing (shown by running
// the same command with that guarantee accepted as missing).
func TestProbeMatchesReality(t *testing.T) {
	caps := Probe(context.Background())
	t.Logf("probe: %+v", caps)
	if len(caps.Missing) != len(caps.Reasons) || caps.All() != (len(caps.Missing) == 0) {
		t.Fatalf("inconsistent capabilities %+v", caps)
	}
	ln, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir, outside := t.TempDir(), t.TempDir()
	accept := []string{GuaranteeNoNetwork, GuaranteeWritesConfined}

	res := run(t, Spec{Argv: []string{self(t), "sandbox-test-command", "dial", ln.Addr().String()}, Dir: dir, AcceptMissing: accept})
	reached := res.ExitCode == 0 || ln.accepted() > 0
	if caps.NoNetwork == reached {
		t.Errorf("probe says no-network=%v, but the command reached 127.0.0.1: %v (%s)", caps.NoNetwork, reached, res.Output)
	}
	target := filepath.Join(outside, "escaped")
	res = run(t, Spec{Argv: []string{self(t), "sandbox-test-command", "write", target}, Dir: dir, AcceptMissing: accept})
	_, statErr := os.Stat(target)
	wrote := statErr == nil
	if caps.WritesConfined == wrote {
		t.Errorf("probe says writes-confined=%v, but the command wrote outside: %v (%s)", caps.WritesConfined, wrote, res.Output)
	}
}

func requireGuarantees(t *testing.T, need ...string) {
	t.Helper()
	caps := Probe(context.Background())
	for i, g := range caps.Missing {
		for _, n := range need {
			if g == n {
				t.Skipf("this machine cannot give it: %s", caps.Reasons[i])
			}
		}
	}
}

func TestTCPConnectionToALoopbackListenerFails(t *testing.T) {
	requireGuarantees(t, GuaranteeNoNetwork)
	ln, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	argv := []string{self(t), "sandbox-test-command", "dial", ln.Addr().String()}
	res := run(t, Spec{Argv: argv, Dir: t.TempDir()})
	if res.ExitCode == 0 || ln.accepted() != 0 || !bytes.Contains(res.Output, []byte("dial failed")) {
		t.Fatalf("the sandboxed command reached the listener: exit %d, accepted %d, %s", res.ExitCode, ln.accepted(), res.Output)
	}
	// The same command with the network allowed does connect: the failure
	// above is the sandbox's doing.
	res = run(t, Spec{Argv: argv, Dir: t.TempDir(), AllowNetwork: true})
	if res.ExitCode != 0 || ln.accepted() == 0 {
		t.Fatalf("with AllowNetwork the command could not connect: exit %d, %s", res.ExitCode, res.Output)
	}
}

func TestWritesOutsideTheCheckoutFail(t *testing.T) {
	requireGuarantees(t, GuaranteeWritesConfined)
	dir, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path string) Result {
		return run(t, Spec{Argv: []string{self(t), "sandbox-test-command", "write", path}, Dir: dir, AllowWrites: []string{extra}})
	}
	target := filepath.Join(outside, "escaped")
	if res := write(target); res.ExitCode == 0 || !bytes.Contains(res.Output, []byte("permission denied")) {
		t.Fatalf("write outside: exit %d, %s", res.ExitCode, res.Output)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("the file outside exists: %v", err)
	}
	for _, ok := range []string{filepath.Join(dir, "inside"), filepath.Join(extra, "allowed")} {
		if res := write(ok); res.ExitCode != 0 {
			t.Fatalf("write %s: exit %d, %s", ok, res.ExitCode, res.Output)
		}
		if _, err := os.Stat(ok); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEnvironmentIsMinimalAndHasNoToken(t *testing.T) {
	const secret = "ghp_doNotLeakThisToken0123456789abcdef"
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GIT_ASKPASS", "HTTPS_PROXY", "AWS_SECRET_ACCESS_KEY"} {
		t.Setenv(k, secret)
	}
	dir := t.TempDir()
	exe := self(t)
	res := run(t, Spec{Argv: []string{exe, "sandbox-test-command", "env"}, Dir: dir})
	out := string(res.Output)
	if strings.Contains(out, secret) || res.ExitCode != 0 {
		t.Fatalf("exit %d; environment:\n%s", res.ExitCode, out)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	if env["CWD"] != dir {
		t.Errorf("working directory %q, want %q", env["CWD"], dir)
	}
	delete(env, "CWD")
	wantPath := filepath.Dir(exe) + ":/usr/local/bin:/usr/bin:/bin"
	if env["PATH"] != wantPath || env["LANG"] != "C.UTF-8" || !strings.HasPrefix(env["HOME"], env["TMPDIR"]+"/") || len(env) != 4 {
		t.Fatalf("environment %v, want exactly PATH=%s, HOME under TMPDIR, LANG=C.UTF-8", env, wantPath)
	}
	if strings.HasPrefix(env["HOME"], os.Getenv("HOME")+"/") && os.Getenv("HOME") != "/" {
		t.Fatalf("HOME %q is inside the user's home", env["HOME"])
	}
	// Spec.Env adds exactly what it names.
	res = run(t, Spec{Argv: []string{exe, "sandbox-test-command", "env"}, Dir: dir, Env: []string{"GOCACHE=" + dir + "/cache"}})
	if !strings.Contains(string(res.Output), "\nGOCACHE="+dir+"/cache\n") || strings.Contains(string(res.Output), secret) {
		t.Fatalf("with Spec.Env:\n%s", res.Output)
	}
}

// The timeout kills the command and everything it started, even a process
// that left the group with setsid.
func TestTimeoutKillsEverythingTheCommandStarted(t *testing.T) {
	marker := fmt.Sprintf("1000.%d", time.Now().UnixNano()%1000000)
	script := "sleep " + marker + " & setsid sleep " + marker + " & echo started; sleep " + marker
	res := run(t, Spec{Argv: []string{"/bin/sh", "-c", script}, Dir: t.TempDir(), Timeout: 2 * time.Second})
	if !res.TimedOut || res.ExitCode != -1 || !bytes.Contains(res.Output, []byte("started")) {
		t.Fatalf("timed out %v, exit %d, output %q", res.TimedOut, res.ExitCode, res.Output)
	}
	if alive := livingWithArg(t, marker); len(alive) > 0 {
		t.Fatalf("still running after the timeout: %v", alive)
	}
}

// livingWithArg lists pids of non-zombie processes with arg in their argv.
func livingWithArg(t *testing.T, arg string) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("\x00"+arg+"\x00")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

func TestExitCodeArgvAndBoundedOutput(t *testing.T) {
	res := run(t, Spec{Argv: []string{"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, Dir: t.TempDir()})
	if res.ExitCode != 3 || res.TimedOut || string(res.Output) != "out\nerr\n" {
		t.Fatalf("exit %d, output %q", res.ExitCode, res.Output)
	}
	// No shell: metacharacters reach the program literally.
	lit := "$HOME; echo injected `id`"
	res = run(t, Spec{Argv: []string{"/bin/echo", lit}, Dir: t.TempDir()})
	if string(res.Output) != lit+"\n" {
		t.Fatalf("echo printed %q", res.Output)
	}
	var live bytes.Buffer
	res = run(t, Spec{Argv: []string{"/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done"}, Dir: t.TempDir(), OutputLimit: 100, Tail: &live})
	if !res.Truncated || len(res.Output) != 100 || !bytes.HasSuffix(res.Output, []byte("line1999\n")) {
		t.Fatalf("truncated %v, %d bytes, ends %q", res.Truncated, len(res.Output), res.Output)
	}
	if !bytes.HasPrefix(live.Bytes(), []byte("line0\nline1\n")) || !bytes.HasSuffix(live.Bytes(), []byte("line1999\n")) {
		t.Fatalf("live output incomplete: %d bytes", live.Len())
	}
}

// A guarantee the machine lacks is an error, not a silent downgrade, and
// the command does not run; accepting exactly that guarantee runs it.
func TestMissingGuaranteeIsAnErrorUnlessAccepted(t *testing.T) {
	real := probeOnce
	t.Cleanup(func() { probeOnce = real })
	m := machine{caps: Capabilities{NoNetwork: true, MinimalEnv: true}}
	m.caps.miss(GuaranteeWritesConfined, "injected: no Landlock")
	m.namespaces = real().namespaces
	probeOnce = func() machine { return m }

	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	spec := Spec{Argv: []string{self(t), "sandbox-test-command", "write", marker}, Dir: dir}
	_, err := Run(context.Background(), spec)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "injected: no Landlock") {
		t.Fatalf("Run without Landlock: %v", err)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatal("the command ran although its isolation could not be delivered")
	}
	spec.AcceptMissing = []string{GuaranteeWritesConfined}
	if res := run(t, spec); res.ExitCode != 0 {
		t.Fatalf("accepted: exit %d, %s", res.ExitCode, res.Output)
	}
}

func TestSpecIsValidated(t *testing.T) {
	for name, s := range map[string]Spec{
		"empty argv":    {Dir: "/tmp"},
		"relative exe":  {Argv: []string{"sh"}, Dir: "/tmp"},
		"relative dir":  {Argv: []string{"/bin/sh"}, Dir: "tmp"},
		"relative rw":   {Argv: []string{"/bin/sh"}, Dir: "/tmp", AllowWrites: []string{"x"}},
		"negative time": {Argv: []string{"/bin/sh"}, Dir: "/tmp", Timeout: -1},
		"token env":     {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"NPM_TOKEN=x"}},
		"gh env":        {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"GH_HOST=x"}},
		"git env":       {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"GIT_DIR=x"}},
		"proxy env":     {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"https_proxy=x"}},
		"path env":      {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"PATH=/x"}},
		"preload env":   {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"LD_PRELOAD=/x.so"}},
		"malformed env": {Argv: []string{"/bin/sh"}, Dir: "/tmp", Env: []string{"NOEQUALS"}},
	} {
		if _, err := Run(context.Background(), s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWithoutMainNothingRuns(t *testing.T) {
	hooked.Store(false)
	defer hooked.Store(true)
	if _, err := Run(context.Background(), Spec{Argv: []string{"/bin/true"}, Dir: t.TempDir()}); !errors.Is(err, errNotHooked) {
		t.Fatalf("Run: %v", err)
	}
	if c := Probe(context.Background()); c.NoNetwork || c.WritesConfined || len(c.Missing) != 2 {
		t.Fatalf("Probe without Main: %+v", c)
	}
}
