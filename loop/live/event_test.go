package live

import (
	"testing"
	"time"

	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

func TestEventsBuildTheLiveOperationList(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := &Source{Deps: wakeup.Deps{Now: func() time.Time { return now }}}
	var seen []status.Loop
	s.progress = func(l status.Loop) { seen = append(seen, l) }
	s.last = status.Loop{Key: "k"}
	s.Event(initial.Event{Event: initial.EventStarted, Op: "edit-files", Index: 0, Of: 3})
	s.Event(initial.Event{Event: initial.EventFinished, Op: "edit-files", Index: 0, Of: 3, Receipt: map[string]string{"commit_sha": "0123456789abcdef0123"}, Reconciled: true})
	s.Event(initial.Event{Event: initial.EventStarted, Op: "commit", Index: 1, Of: 3})
	s.Event(initial.Event{Event: initial.EventFailed, Op: "commit", Index: 1, Of: 3, Detail: "hook refused"})
	if len(seen) != 4 {
		t.Fatalf("%d progress reports", len(seen))
	}
	if p := seen[0]; p.Key != "k" || p.Phase() != status.PhaseExecuting || p.Execution.Operations[0].State != status.OpRunning {
		t.Errorf("first report: %+v", p.Execution)
	}
	last := seen[3].Execution.Operations
	if last[0].State != status.OpDone || last[0].Receipt != "commit 0123456789ab (found, not repeated)" ||
		last[1].State != status.OpFailed || last[1].Message != "hook refused" || last[2].State != status.OpPending {
		t.Errorf("operations %+v", last)
	}
	if seen[0].Execution.Operations[0].State != status.OpRunning {
		t.Error("a report must not change after it was sent (the console reads it later)")
	}
	if len(s.ops) != 2 || !s.ops[1].Failed || s.ops[0].Op != "edit-files" {
		t.Errorf("history entries %+v", s.ops)
	}
	h := mergeOps([]status.Entry{{Time: now.Add(-time.Minute)}, {Time: now.Add(time.Minute)}}, s.ops)
	if len(h) != 4 || h[1].Op != "edit-files" || !h[3].Time.After(now) {
		t.Errorf("merged history %+v", h)
	}
}
