package tmux

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// demoReads bounds the polls of the whole `make demo` (a guard against a
// hang, not a speed assertion: about ten minutes of reads).
const demoReads = 3000

// `make demo` on a real terminal, driven as a person would: q on the
// report console (step 2), the hash typed on every approval console it
// meets — step 3's plan, step 5's initial plan, then inside the watch
// console that start turns into, each fix round's and the finalization's
// plan, with y on each fix round's diff shown before its commit — and q
// once the watch console shows the loop finalized. The demo
// then prints the loop's history and the merge-gate report and exits 0.
func TestMakeDemoOnARealTerminal(t *testing.T) {
	requireTmux(t)
	// Most of each test waits on simulated time; side by side they take
	// about the longer one's wall time instead of the sum (measured).
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, root, baseEnv(t, t.TempDir()), "make demo")

	var hashes []string
	typed := map[string]bool{}
	// A key pressed before a console reads its input is not lost (the pty
	// buffers it), but a q is pressed again if the console is still there
	// a few reads later.
	lastQ := map[string]int{}
	pressQ := func(which string, n int) {
		if last, ok := lastQ[which]; !ok || n-last > 10 {
			lastQ[which] = n
			term.press("q")
		}
	}
	var status string
	var s string
	var titles []string // the title row of each approval console met
	watched := false    // the watch console of step 5 was on screen
	diffs := 0          // diff screens confirmed with y
	for n := 0; ; n++ {
		if n > demoReads {
			t.Fatalf("make demo did not end; the terminal shows:\n%s\nhashes typed: %v", s, hashes)
		}
		if st, ok := term.exitStatus(); ok {
			status = st
			break
		}
		s = term.screen()
		switch h := shownHash(s); {
		case h != "" && !typed[h]:
			typed[h] = true
			hashes = append(hashes, h)
			titles = append(titles, titleRow(s))
			term.typeLine(h)
		case strings.Contains(s, "octo-org/widgets#42") && strings.Contains(s, "r refresh") && strings.Contains(s, "q quit"):
			pressQ("report", n)
		case strings.Contains(s, "y commit • n refuse"):
			// Approval-gated: the console shows each fix round's diff
			// before its commit; the person reads it and commits.
			if last, ok := lastQ["diff"]; !ok || n-last > 10 {
				lastQ["diff"] = n
				diffs++
				term.press("y")
			}
		case strings.Contains(s, "FINALIZED") && strings.Contains(s, "q quit"):
			pressQ("watch", n)
		}
		if strings.Contains(s, "approval-gated · round") && strings.Contains(s, "History") {
			watched = true
		}
		time.Sleep(pollEvery)
	}
	out := term.transcript()
	t.Logf("make demo exited %s after typing %d hashes; transcript:\n%s", status, len(hashes), out)
	if status != "0" {
		t.Fatalf("make demo exited %s", status)
	}
	// Step 3's plan, step 5's initial plan, two fix rounds, the finalization.
	if len(hashes) != 5 {
		t.Errorf("typed %d plan hashes, want 5: %v", len(hashes), hashes)
	}
	// Each fix round's diff was shown before its commit (a screen seen
	// again after a y only if the first press came before it read keys).
	if diffs < 2 {
		t.Errorf("confirmed %d diffs, want one per fix round (2)", diffs)
	}
	if !watched {
		t.Error("start never turned into the loop's watch console")
	}
	// The watch console asked for each loop plan in its approval screen.
	if got := strings.Join(titles, " | "); !regexp.MustCompile(`fix round 1: .* \| .*fix round 2: .* \| .*finalize: resolve 4 Codex threads`).MatchString(got) {
		t.Errorf("approval consoles met: %s", got)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?s)== 1\..*examples/initial/\S+ +exit=0 +ok kind=initial plan_hash=[0-9a-f]{64}`),
		regexp.MustCompile(`(?s)== 2\..*== 3\..*Approved plan [0-9a-f]{64}`),
		regexp.MustCompile(`(?s)== 4\..*bootstrap-automation.*Done\. https://github\.com/octo-org/widgets/pull/1`),
		regexp.MustCompile(`(?s)== 5\. The whole loop, approval-gated.*Approved plan [0-9a-f]{64}.*Done\. https://github\.com/octo-org/widgets/pull/1`),
		regexp.MustCompile(`(?s)the loop's history.*` +
			`wakeup \d+ +await-approval +remediation-plan.*` +
			`wakeup \d+ +execute-remediation +approved.*` +
			`wakeup \d+ +await-approval +remediation-plan.*` +
			`wakeup \d+ +execute-remediation +approved.*` +
			`wakeup \d+ +await-approval +finalization-plan.*` +
			`wakeup \d+ +execute-finalization +approved.*` +
			`wakeup \d+ +finish-finalization +post-mutation`),
		regexp.MustCompile(`(?s)the merge-gate report.*finalized at \S+, gates read at \S+.*approvals +pass.*checks +pass.*mergeability +pass`),
	} {
		if !want.MatchString(out) {
			t.Errorf("the transcript lacks %s", want)
		}
	}
	if n := len(regexp.MustCompile(`wakeup \d+ +execute-remediation`).FindAllString(out, -1)); n != 2 {
		t.Errorf("%d fix rounds executed, want 2", n)
	}
	if strings.Contains(out, "panic") {
		t.Error("something panicked")
	}
}

// titleRow is the approval console's "title" row.
func titleRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "title ") {
			return strings.TrimSpace(strings.TrimPrefix(l, "title "))
		}
	}
	return "(no title row)"
}
