package wakeup_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// updateRecord reads round 1's update-automation journal record.
func (w *world) updateRecord() *journal.Entry {
	w.t.Helper()
	names, _ := filepath.Glob(filepath.Join(w.run().Dir(), remediate.Phase(1)+"-*-"+policy.OpUpdateAutomation+".json"))
	if len(names) != 1 {
		w.t.Fatalf("update-automation records: %v", names)
	}
	data, err := os.ReadFile(names[0])
	if err != nil {
		w.t.Fatal(err)
	}
	e, err := journal.Decode(data)
	if err != nil {
		w.t.Fatal(err)
	}
	return e
}

// crashAfterUpdate runs round 1 with the executor crashing right after
// update-automation recorded the round in the checkpoint, before its
// receipt: the checkpoint is at round 1 without the round's plan.
func crashAfterUpdate(t *testing.T) (*world, int) {
	needSandbox(t)
	w := newWorld(t, policy.ModeAutonomous, ghsim.Scenario{Kind: ghsim.Findings})
	w.wake()
	fixer := w.fixer()
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.Fixer = fixer })
	w.codexAnswers()
	pushes0 := w.bed.GitServer.Pushes()
	point := "after:" + policy.OpUpdateAutomation
	d := w.remediationDeps(func(p string) bool { return p == point })
	if o := wakeup.One(t.Context(), d, w.key); !strings.Contains(o.Error, remediate.ErrCrashed.Error()) {
		t.Fatalf("the crash at %s was not reached: %+v", point, o)
	}
	if e := w.updateRecord(); e.Done() {
		t.Fatal("update-automation has a receipt although the crash came before it")
	}
	return w, pushes0
}

// An update-automation killed after it recorded the round (the round's
// plan is gone from the checkpoint, so no resume finds it) is receipted by
// the next wakeup from the checkpoint, with exactly the receipt the
// executor writes; nothing is sent again. A checkpoint that does not hold
// the round the reservation announced is not its record: that wakeup fails
// closed, naming both, and receipts nothing.
func TestWakeupReceiptsAnUpdateKilledAfterItsRecord(t *testing.T) {
	w, pushes0 := crashAfterUpdate(t)
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.RequestCommentID++ })
	o := wakeup.One(context.Background(), w.remediationDeps(nil), w.key)
	if o.Exit != wakeup.ExitHalt || !strings.Contains(o.Error, "was reserved for round 1") {
		t.Fatalf("wakeup with a checkpoint that does not hold the round: %+v", o)
	}
	if w.updateRecord().Done() {
		t.Fatal("update-automation was receipted from a checkpoint that does not hold its round")
	}
	w.editCheckpoint(func(c *checkpoint.Checkpoint) { c.RequestCommentID-- })

	o = wakeup.One(context.Background(), w.remediationDeps(nil), w.key)
	if o.Error != "" || !strings.Contains(o.Done, "receipted fix round 1's update-automation") {
		t.Fatalf("wakeup after the crash: %+v", o)
	}
	e := w.updateRecord()
	c, err := checkpoint.Read(w.run())
	if err != nil {
		t.Fatal(err)
	}
	if !e.Done() || e.Receipt["round"] != "1" || e.Receipt["request_head_sha"] != c.RequestHeadSHA || e.Receipt["completed_request_key"] != c.CompletedRequestKeys[0] {
		t.Fatalf("update-automation record after the wakeup: %+v (checkpoint %+v)", e, c)
	}
	w.checkRoundOne(pushes0)
	// A later wakeup finds nothing more to receipt.
	if o := wakeup.One(context.Background(), w.remediationDeps(nil), w.key); o.Error != "" || strings.Contains(o.Done, "receipted") {
		t.Fatalf("second wakeup: %+v", o)
	}
}
