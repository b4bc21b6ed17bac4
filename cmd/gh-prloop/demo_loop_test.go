package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// make demo step 5 without a terminal (stdin /dev/null, output a pipe):
// it runs the whole autonomous loop with the real binary and never
// prompts; its transcript shows each executing wakeup in order — two fix
// rounds (Codex finds, finds again, then 👍), the finalization — and the
// final merge-gate report read from the run.
func TestDemoLoopWithoutATerminal(t *testing.T) {
	bin := buildBinary(t)
	cmd := exec.Command("bash", "../../scripts/demo_loop.sh", bin)
	cmd.Env = append(baseEnv(t), "TMPDIR="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut // cmd.Stdin nil: /dev/null
	if err := cmd.Run(); err != nil {
		t.Fatalf("demo_loop.sh: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	s := out.String()
	order := regexp.MustCompile(`(?s)bootstrap-automation done.*status=ACTIVE.*` +
		`wakeup \d+ +execute-remediation +autonomous +.*fix round 1: commit [0-9a-f]{40}, 2 replies.*` +
		`wakeup \d+ +execute-remediation +autonomous +.*fix round 2: commit [0-9a-f]{40}, 2 replies.*` +
		`wakeup \d+ +execute-finalization +autonomous +.*resolved 4 threads.*` +
		`wakeup \d+ +finish-finalization +post-mutation +.*deleted automation github-codex-pr-loop/octo-org/widgets/pull/1/run/.*` +
		`the merge-gate report.*finalized at .*checks +pass`)
	if !order.MatchString(s) {
		t.Fatalf("transcript lacks the loop in order:\n%s\nstderr:\n%s", s, errOut.String())
	}
	if n := strings.Count(s, "execute-remediation"); n != 2 {
		t.Errorf("execute-remediation shown %d times:\n%s", n, s)
	}
}
