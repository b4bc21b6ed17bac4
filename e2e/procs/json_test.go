package procs

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// startResult is the result event `start --json` (or `apply --json`) ended
// with: the process must have exited 0 and its automation be ACTIVE.
func startResult(t *testing.T, r result) *initial.Result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("start: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var last initial.Event
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("--json line %q: %v", sc.Text(), err)
		}
	}
	if last.Event != initial.EventResult || last.Result == nil || last.Result.Status != automations.StatusActive {
		t.Fatalf("start's last event %+v", last)
	}
	return last.Result
}

// outcomes decodes the lines of `wakeup --json`, one per loop.
func outcomes(t *testing.T, stdout string) []wakeup.Outcome {
	t.Helper()
	var outs []wakeup.Outcome
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var o wakeup.Outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatalf("wakeup --json line %q: %v", sc.Text(), err)
		}
		outs = append(outs, o)
	}
	return outs
}
