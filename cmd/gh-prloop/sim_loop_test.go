package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/fixer"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/simenv"
)

// startSim runs `gh-prloop sim ARGS` and returns its world; the process is
// stopped when the test ends.
func startSim(t *testing.T, bin string, args ...string) standalone.Info {
	t.Helper()
	sim := exec.Command(bin, append([]string{"sim"}, args...)...)
	sim.Env = baseEnv(t)
	stdout, err := sim.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var simErr bytes.Buffer
	sim.Stderr = &simErr
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sim.Process.Signal(os.Interrupt)
		sim.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("sim printed no line: %v; stderr %s", err, simErr.String())
	}
	var info standalone.Info
	if err := json.Unmarshal(line, &info); err != nil {
		t.Fatalf("sim's line %q: %v", line, err)
	}
	return info
}

// api sends one REST request to the simulator as the product's user.
func api(t *testing.T, info standalone.Info, method, path string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, info.APIURL+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "token "+info.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s %v %v", method, path, resp.Status, out, err)
	}
	return out
}

func simState(t *testing.T, info standalone.Info) ghsim.State {
	t.Helper()
	resp, err := http.Get(info.APIURL + ghsim.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st ghsim.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitState polls /_sim/state until cond holds. The simulated clock runs
// fast, so this is quick; the bound only keeps a broken simulator from
// hanging the suite and asserts nothing about speed.
func waitState(t *testing.T, info standalone.Info, what string, cond func(ghsim.State) bool) ghsim.State {
	t.Helper()
	for range 3000 {
		st := simState(t, info)
		if cond(st) {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the simulator never reached: %s\n%+v", what, simState(t, info))
	return ghsim.State{}
}

func simTime(t *testing.T, s *string) time.Time {
	t.Helper()
	if s == nil {
		t.Fatal("no time")
	}
	v, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The real binary: `sim --scenario findings,clean-by-reaction,silence
// --time-scale 600 --bot-delay 30s` answers three review requests in
// turn, with the bot's steps 30 simulated seconds apart (timestamps on
// the simulated clock, which env's GH_PRLOOP_SIM_CLOCK reports), findings
// on real lines of the checkout that `sim fix` then changes, CI on the
// PR's head, 👍 for the clean round, and nothing for silence. Bad flags
// are usage errors (exit 2).
func TestRealBinarySimScenarioAndFix(t *testing.T) {
	bin := buildBinary(t)
	for _, bad := range [][]string{{"--scenario", "findings,bogus"}, {"--scenario", ""}, {"--time-scale", "0"}, {"--bot-delay", "0s"}} {
		_, errOut, code := runBinary(t, bin, t.TempDir(), baseEnv(t), append([]string{"sim"}, bad...)...)
		if code != 2 || !strings.Contains(errOut, strings.TrimPrefix(bad[0], "--")) {
			t.Errorf("sim %v: exit %d: %s", bad, code, errOut)
		}
	}

	info := startSim(t, bin, "--scenario", "findings,clean-by-reaction,silence", "--time-scale", "600", "--bot-delay", "30s", "--check-delay", "1m")
	clockURL := info.Env[simenv.EnvClock]
	if clockURL != info.APIURL+ghsim.ClockPath {
		t.Fatalf("env %s = %q", simenv.EnvClock, clockURL)
	}
	pr := api(t, info, "POST", "/repos/"+testbed.Repository+"/pulls", map[string]any{
		"title": "Add a retry budget", "head": testbed.HeadBranch, "base": testbed.BaseBranch})
	number := int(pr["number"].(float64))
	head := pr["head"].(map[string]any)["sha"].(string)
	request := func() (int64, time.Time) {
		c := api(t, info, "POST", fmt.Sprintf("/repos/%s/issues/%d/comments", testbed.Repository, number), map[string]any{"body": "@codex review\n<!-- round -->"})
		s := c["created_at"].(string)
		return int64(c["id"].(float64)), simTime(t, &s)
	}

	// Round 1: findings.
	_, at := request()
	st := waitState(t, info, "a findings review", func(st ghsim.State) bool { return len(st.Reviews) == 1 })
	if got := simTime(t, st.Reviews[0].SubmittedAt); !got.Equal(at.Add(3 * 30 * time.Second)) {
		t.Fatalf("review at %s, request at %s: want three 30s bot steps of simulated time", got, at)
	}
	want := testbed.RoundFindings(0)
	if len(st.Threads) != len(want) {
		t.Fatalf("threads %+v", st.Threads)
	}
	var threads []fixer.Thread
	for i, th := range st.Threads {
		if th.Path != want[i].Path || th.Line != want[i].Line || th.RootAuthor != ghsim.CodexBotLogin {
			t.Fatalf("thread %d: %+v, want %s:%d", i, th, want[i].Path, want[i].Line)
		}
		line, prio := th.Line, fmt.Sprintf("P%d", want[i].Priority)
		threads = append(threads, fixer.Thread{ThreadID: th.ID, Path: th.Path, Line: &line, Priority: &prio, Title: want[i].Title, Body: want[i].Body})
	}
	resp, err := http.Get(clockURL)
	if err != nil {
		t.Fatal(err)
	}
	var clk ghsim.ClockResponse
	json.NewDecoder(resp.Body).Decode(&clk)
	resp.Body.Close()
	if now := simTime(t, &clk.Now); now.Before(simTime(t, st.Reviews[0].SubmittedAt)) {
		t.Fatalf("clock %s is before the review it already shows", now)
	}
	st = waitState(t, info, "CI on the PR's head", func(st ghsim.State) bool {
		for _, cr := range st.CheckRuns {
			if cr.HeadSHA == head && cr.Status == "completed" && cr.Conclusion == "success" {
				return st.Pulls[0].MergeStateStatus == "CLEAN"
			}
		}
		return false
	})

	// The scripted fixer, as the loop runs a --fixer: cwd = checkout, the
	// contract file as the last argument.
	input := filepath.Join(t.TempDir(), "threads.json")
	var buf bytes.Buffer
	if err := fixer.Encode(&buf, threads); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(input, buf.Bytes(), 0o600)
	before := map[string]string{}
	for _, th := range threads {
		b, _ := os.ReadFile(filepath.Join(info.Checkout, th.Path))
		before[th.Path] = string(b)
	}
	out, errOut, code := runBinary(t, bin, info.Checkout, baseEnv(t), "sim", "fix", input)
	if code != 0 || strings.Count(out, " changed ") != len(threads) {
		t.Fatalf("sim fix: exit %d\n%s%s", code, out, errOut)
	}
	for _, th := range threads {
		b, _ := os.ReadFile(filepath.Join(info.Checkout, th.Path))
		lines := strings.Split(string(b), "\n")
		if string(b) == before[th.Path] || !strings.Contains(lines[*th.Line-1], fixer.Marker+" "+th.ThreadID+": "+th.Title) {
			t.Fatalf("%s not changed at line %d:\n%s", th.Path, *th.Line, b)
		}
	}
	out, _, code = runBinary(t, bin, info.Checkout, baseEnv(t), "sim", "fix", input)
	if code != 0 || strings.Count(out, "already fixed") != len(threads) {
		t.Fatalf("sim fix re-run: exit %d: %s", code, out)
	}
	os.WriteFile(input, []byte(`[{"thread_id":"T","path":"../outside.go","title":"t","body":"b"}]`), 0o600)
	_, errOut, code = runBinary(t, bin, info.Checkout, baseEnv(t), "sim", "fix", input)
	if code != 1 || !strings.Contains(errOut, fixer.ErrCode+": $[0].path") {
		t.Fatalf("bad input: exit %d: %s", code, errOut)
	}

	// Round 2: clean by reaction — 👍 on the request, no comment, no review.
	id, _ := request()
	st = waitState(t, info, "the bot's 👍", func(st ghsim.State) bool {
		for _, r := range st.Reactions {
			if r.Comment == id && r.Content == "+1" && r.User == ghsim.CodexBotLogin {
				return true
			}
		}
		return false
	})
	if len(st.Reviews) != 1 {
		t.Fatalf("clean-by-reaction posted a review: %+v", st.Reviews)
	}
	comments := len(st.IssueComments)

	// Round 3: silence — once its whole script would be over, still no verdict.
	id, at = request()
	st = waitState(t, info, "time past the silent round", func(st ghsim.State) bool {
		return !simTime(t, &st.Now).Before(at.Add(10 * 30 * time.Second))
	})
	for _, r := range st.Reactions {
		if r.Comment == id && r.Content == "+1" {
			t.Fatal("silence reacted 👍")
		}
	}
	if len(st.Reviews) != 1 || len(st.IssueComments) != comments+1 { // only the request itself
		t.Fatalf("silence answered: %d reviews, %d comments (was %d)", len(st.Reviews), len(st.IssueComments), comments)
	}
}
