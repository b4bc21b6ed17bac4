package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/simenv"
)

// buildBinary builds this command into dir: the tests below run the real
// process, as a script or h/exec's crash tests do.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gh-prloop")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// baseEnv is a neutral environment: no gh login, no token, no simulator.
func baseEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GH_CONFIG_DIR=" + filepath.Join(home, "gh"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "LANG=C.UTF-8",
	}
}

func runBinary(t *testing.T, bin, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", args, err)
	}
	return o.String(), e.String(), code
}

func withEnv(base []string, m map[string]string) []string {
	out := append([]string(nil), base...)
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// The env hook end to end, with real processes: `gh-prloop sim` prints its
// world, `plan --json` in its checkout with its env plans against it (the
// GitHub client and the git runner both reach the simulator), nothing
// prints the token, and SIGTERM removes the world. Without the variables
// the same binary takes the production path (not logged in, exit 4); with
// some of them, or a non-loopback URL, it refuses (exit 1) naming the
// variable.
func TestRealBinaryAgainstTheStandaloneSimulator(t *testing.T) {
	bin := buildBinary(t)
	base := baseEnv(t)

	sim := exec.Command(bin, "sim")
	sim.Env = base
	stdout, err := sim.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var simErr bytes.Buffer
	sim.Stderr = &simErr
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			sim.Process.Kill()
			sim.Wait()
		}
	}()
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("sim printed no line: %v; stderr %s", err, simErr.String())
	}
	var info standalone.Info
	if err := json.Unmarshal(line, &info); err != nil {
		t.Fatalf("sim's line %q: %v", line, err)
	}
	for _, k := range simenv.Names {
		if info.Env[k] == "" {
			t.Fatalf("env lacks %s: %s", k, line)
		}
	}
	if !strings.HasPrefix(info.GitURL, "https://127.0.0.1:") || !strings.HasPrefix(info.APIURL, "http://127.0.0.1:") {
		t.Fatalf("not loopback: %s", line)
	}

	t.Run("plan --json uses the simulator", func(t *testing.T) {
		out, errOut, code := runBinary(t, bin, info.Checkout, withEnv(base, info.Env), "plan", "--json", "--title", "Add a retry budget")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc struct {
			Snapshot struct {
				Repository string   `json:"repository"`
				Paths      []string `json:"paths"`
			} `json:"initial_snapshot"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if doc.Snapshot.Repository != testbed.Repository || len(doc.Snapshot.Paths) != len(testbed.ChangedPaths()) {
			t.Fatalf("snapshot %+v", doc.Snapshot)
		}
		if strings.Contains(out+errOut, info.Token) {
			t.Fatal("the token was printed")
		}
	})
	t.Run("without the variables production is untouched", func(t *testing.T) {
		_, errOut, code := runBinary(t, bin, info.Checkout, base, "plan", "--json", "--title", "x")
		if code != 4 {
			t.Fatalf("exit %d, want 4 (not logged in): %s", code, errOut)
		}
	})
	t.Run("an incomplete or remote simulator environment is refused", func(t *testing.T) {
		partial := map[string]string{simenv.EnvAPIURL: info.APIURL, simenv.EnvToken: info.Token}
		_, errOut, code := runBinary(t, bin, info.Checkout, withEnv(base, partial), "plan", "--json", "--title", "x")
		if code != 1 || !strings.Contains(errOut, simenv.EnvGitHost) || strings.Contains(errOut, info.Token) {
			t.Fatalf("partial env: exit %d: %s", code, errOut)
		}
		remote := info.Env
		remote[simenv.EnvAPIURL] = "https://api.github.com"
		_, errOut, code = runBinary(t, bin, info.Checkout, withEnv(base, remote), "plan", "--json", "--title", "x")
		if code != 1 || !strings.Contains(errOut, simenv.EnvAPIURL) || strings.Contains(errOut, info.Token) {
			t.Fatalf("remote API: exit %d: %s", code, errOut)
		}
	})

	resp, err := http.Get(info.APIURL + ghsim.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := sim.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	killed = true
	if err := sim.Wait(); err != nil {
		t.Fatalf("sim after SIGTERM: %v; stderr %s", err, simErr.String())
	}
	if _, err := os.Stat(info.Checkout); !os.IsNotExist(err) {
		t.Fatalf("checkout left behind: %v", err)
	}
	if _, err := os.Stat(info.CAFile); !os.IsNotExist(err) {
		t.Fatalf("CA left behind: %v", err)
	}
}

// report, too, reads GitHub through the hook: a pull request seeded in an
// in-process world is reported by the real binary.
func TestRealBinaryReportsAPullRequestOfAnInProcessSimulator(t *testing.T) {
	bin := buildBinary(t)
	sim, err := standalone.Start(context.Background(), standalone.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	pr, err := sim.Bed.OpenPR("Add a retry budget", "body")
	if err != nil {
		t.Fatal(err)
	}
	info := sim.Info()
	out, errOut, code := runBinary(t, bin, t.TempDir(), withEnv(baseEnv(t), info.Env),
		"report", strconv.Itoa(pr.Number()), "--repo", testbed.Repository, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		State struct {
			Repository     string `json:"repository"`
			CurrentHeadSHA string `json:"current_head_sha"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	head, _ := sim.Bed.Repo.Branch(testbed.HeadBranch)
	if rep.State.Repository != testbed.Repository || rep.State.CurrentHeadSHA != head || head == "" {
		t.Fatalf("report state %+v, want %s at %s", rep.State, testbed.Repository, head)
	}
	if strings.Contains(out+errOut, info.Token) {
		t.Fatal("the token was printed")
	}
}
