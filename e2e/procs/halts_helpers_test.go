package procs

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// haltWorld is one standalone world whose simulated time moves only when
// the test says so (a ghsim.ManualClock as the simulator's clock, which
// the real processes read through /_sim/clock): a request deadline or a
// claim's TTL passes in one step, with no wall-clock wait and nothing
// timed asserted. The Codex bot's steps are BotDelay apart in that time.
type haltWorld struct {
	*world
	clock *ghsim.ManualClock
	key   string // the loop's automation key, once started
	runID string
}

// haltBotDelay is the simulated time between the bot's steps;
// haltBotAnswers is comfortably more than a whole answer takes (👀, the
// running summary, the review), and far less than the request deadline.
const (
	haltBotDelay   = 10 * time.Second
	haltBotAnswers = 5 * time.Minute
)

func haltNewWorld(t *testing.T, kinds ...ghsim.ScenarioKind) *haltWorld {
	t.Helper()
	clock := ghsim.NewManualClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	// No gate script: the gates stay as seeded (mergeable, clean), so a
	// merge through the API is allowed and no check run moves under a halt.
	w := worldOn(t, standalone.Options{
		Dir: t.TempDir(), Clock: clock.Now, BotDelay: haltBotDelay, Scenarios: kinds,
	}, "")
	return &haltWorld{world: w, clock: clock}
}

// haltStart runs `start --mode autonomous` with fixer (a --fixer value)
// and validate commands, and records the loop's key: one ACTIVE
// automation.
func (h *haltWorld) haltStart(fixer string, validate ...string) {
	t := h.t
	t.Helper()
	args := []string{"start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json", "--fixer", fixer}
	for _, v := range validate {
		args = append(args, "--validate", v)
	}
	res := startResult(t, h.gh(nil, args...))
	all := h.automations()
	if len(all) != 1 || all[0].Status != automations.StatusActive {
		t.Fatalf("automations after start: %+v", all)
	}
	h.key, h.runID = all[0].Key, res.RunID
}

// haltSimFixer is the --fixer value of the real scripted fixer.
func haltSimFixer() string { return "'" + binary + "' sim fix" }

// haltWake runs `gh-prloop wakeup ARGS --json` and decodes its lines.
func (h *haltWorld) haltWake(args ...string) (result, []wakeup.Outcome) {
	t := h.t
	t.Helper()
	r := h.gh(nil, append(append([]string{"wakeup"}, args...), "--json")...)
	return r, outcomes(t, r.stdout)
}

// haltWakeOne wakes the loop by key and wants exactly one outcome with
// action (and reason, unless empty) and exit status code.
func (h *haltWorld) haltWakeOne(action, reason string, code int) wakeup.Outcome {
	t := h.t
	t.Helper()
	r, outs := h.haltWake(h.key)
	if r.code != code || len(outs) != 1 || outs[0].Key != h.key || outs[0].Action != action || reason != "" && outs[0].Reason != reason {
		t.Fatalf("wakeup: exit %d, want %d and %s/%s\n%s\n%s", r.code, code, action, reason, r.stdout, r.stderr)
	}
	return outs[0]
}

// haltWrites is everything the product can write, counted from
// /_sim/state and the checkout: every push, every comment and reply not
// by the Codex bot, resolved threads, the PR's draft flag and state, the
// checkout's HEAD and its worktree status.
type haltWrites struct {
	Pushes, Comments, Replies, Resolved int
	Draft                               bool
	State                               string
	HeadRef                             string
	Worktree                            string
}

func (h *haltWorld) haltWritten() haltWrites {
	t := h.t
	t.Helper()
	st := loopSimState(t, h.world)
	var n haltWrites
	n.Pushes = len(st.Pushes)
	for _, c := range st.IssueComments {
		if c.Author != ghsim.CodexBotLogin {
			n.Comments++
		}
	}
	for _, c := range st.ReviewComments {
		if c.Author != ghsim.CodexBotLogin {
			n.Replies++
		}
	}
	for _, th := range st.Threads {
		if th.Resolved {
			n.Resolved++
		}
	}
	if len(st.Pulls) != 1 {
		t.Fatalf("pulls: %+v", st.Pulls)
	}
	n.Draft, n.State = st.Pulls[0].Draft, st.Pulls[0].State
	n.HeadRef = h.haltGit(h.sim.Info().Checkout, "rev-parse", "HEAD")
	n.Worktree = h.haltGit(h.sim.Info().Checkout, "status", "--porcelain=v1", "--untracked-files=all")
	return n
}

// haltCheckHalted: the halting wakeup exited 1 with one --json line
// naming the halt and reason; `automations list` and `automations show
// KEY` (real processes) show the loop PAUSED with that reason; nothing was
// written by the halt (before is the world just before it); and a later
// `wakeup --all` leaves the loop alone and writes nothing either.
func (h *haltWorld) haltCheckHalted(o wakeup.Outcome, reason string, before haltWrites) {
	t := h.t
	t.Helper()
	if o.Action != "halt" || o.Reason != reason || o.Exit != wakeup.ExitHalt || !strings.Contains(o.Done, "paused the automation: "+reason) {
		t.Fatalf("halting wakeup: %+v, want halt/%s", o, reason)
	}
	want := "halt: " + reason
	r := h.gh(nil, "automations", "list")
	line := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, h.key) {
			line = l
		}
	}
	if r.code != 0 || !strings.HasPrefix(line, "PAUSED ") || !strings.Contains(line, want) {
		t.Fatalf("automations list: exit %d, the loop's line %q lacks PAUSED and %q\n%s%s", r.code, line, want, r.stdout, r.stderr)
	}
	r = h.gh(nil, "automations", "show", h.key)
	if r.code != 0 || !haltHasRow(r.stdout, "status", "PAUSED") || !haltHasRow(r.stdout, "reason", want) {
		t.Fatalf("automations show: exit %d, want status PAUSED and reason %q\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if now := h.haltWritten(); now != before {
		t.Fatalf("the halting wakeup wrote something:\nbefore %+v\nafter  %+v", before, now)
	}
	rec := h.haltRecord()
	r, outs := h.haltWake("--all")
	for _, x := range outs {
		if x.Key == h.key {
			t.Fatalf("wakeup --all woke the paused loop: %+v", x)
		}
	}
	if r.code != 0 {
		t.Fatalf("wakeup --all after the halt: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if now := h.haltWritten(); now != before {
		t.Fatalf("wakeup --all after the halt wrote something:\nbefore %+v\nafter  %+v", before, now)
	}
	if again := h.haltRecord(); again != rec {
		t.Fatalf("wakeup --all changed the paused automation:\n%+v\n%+v", rec, again)
	}
}

// haltResume resumes the paused loop as its human would, `automations
// resume KEY`, and wants the next wakeup to wait again.
func (h *haltWorld) haltResume() {
	t := h.t
	t.Helper()
	if r := h.gh(nil, "automations", "resume", h.key); r.code != 0 {
		t.Fatalf("automations resume: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if a := h.haltRecord(); a.Status != automations.StatusActive {
		t.Fatalf("after resume: %+v", a)
	}
	h.haltWakeOne("wait", "awaiting-response", 0)
}

// haltHasRow reports whether `automations show` printed the row name
// whose value starts with value.
func haltHasRow(out, name, value string) bool {
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, " "); ok && k == name && strings.HasPrefix(strings.TrimSpace(v), value) {
			return true
		}
	}
	return false
}

func (h *haltWorld) haltRecord() automations.Record {
	h.t.Helper()
	for _, a := range h.automations() {
		if a.Key == h.key {
			return a
		}
	}
	h.t.Fatalf("no automation %s", h.key)
	return automations.Record{}
}

// haltGit runs the host git in dir as someone working beside the product
// would: no user or system configuration, the git server's CA and its
// credential helper (the same token the world's checkout uses).
func (h *haltWorld) haltGit(dir string, args ...string) string {
	h.t.Helper()
	info := h.sim.Info()
	full := append([]string{"-c", "http.sslCAInfo=" + info.CAFile, "-c", "credential.helper=" + gitx.HelperForScript(h.sim.Bed.CredentialScript)}, args...)
	cmd := exec.Command("git", full...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + h.t.TempDir(), "LANG=C", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=Hubot", "GIT_AUTHOR_EMAIL=hubot@example.com",
		"GIT_COMMITTER_NAME=Hubot", "GIT_COMMITTER_EMAIL=hubot@example.com"}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		h.t.Fatalf("git %v: %v\n%s", args, err, errb.String())
	}
	return strings.TrimSpace(string(out))
}

// haltAPI sends one REST request to the simulator with the world's token,
// as a person with a gh client would, and wants status.
func (h *haltWorld) haltAPI(method, path, body string, status int) map[string]any {
	h.t.Helper()
	info := h.sim.Info()
	req, err := http.NewRequest(method, info.APIURL+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+info.Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != status {
		h.t.Fatalf("%s %s: %d %v, want %d", method, path, resp.StatusCode, out, status)
	}
	return out
}

// haltPullPath is the REST path of the loop's pull request.
func haltPullPath() string { return "/repos/" + testbed.Repository + "/pulls/1" }

// haltScript writes an executable shell script into a temporary directory
// outside the checkout and returns its path.
func haltScript(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+text), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
