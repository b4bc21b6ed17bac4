package procs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// crashStart runs `start --mode autonomous` with the scripted fixer and a
// validation command (so that run-validation is part of every fix round)
// and returns the loop's key and run id.
func (w *world) crashStart() (key, runID string) {
	t := w.t
	t.Helper()
	res := startResult(t, w.gh(nil, "start", "--mode", "autonomous", "--title", title, "--body-file", "../body.md", "--json",
		"--fixer", "'"+binary+"' sim fix", "--validate", "true"))
	return res.AutomationKey, res.RunID
}

// crashWake runs `wakeup KEY --json` with PRLOOP_FAULT=point ("" none).
func (w *world) crashWake(key, point string) result {
	w.t.Helper()
	var extra []string
	if point != "" {
		extra = []string{"PRLOOP_FAULT=" + point}
	}
	return w.gh(extra, "wakeup", key, "--json")
}

// crashKilledAt runs one wakeup with the fault at point and requires that
// it died there by SIGKILL.
func (w *world) crashKilledAt(key, point string) {
	w.t.Helper()
	r := w.crashWake(key, point)
	if r.signal != syscall.SIGKILL {
		w.t.Fatalf("%s: the wakeup was not killed (exit %d)\n%s\n%s", point, r.code, r.stdout, r.stderr)
	}
}

// crashWakeUntilKilled runs wakeups with the fault at point until one is
// killed there; the wakeups before it may only wait, plan or finish
// earlier work (exit 0). The pause between them only lets simulated time
// pass; nothing is asserted about it.
func (w *world) crashWakeUntilKilled(key, point string) []wakeup.Outcome {
	w.t.Helper()
	var all []wakeup.Outcome
	for range 200 {
		r := w.crashWake(key, point)
		if r.signal == syscall.SIGKILL {
			return all
		}
		outs := outcomes(w.t, r.stdout)
		all = append(all, outs...)
		if r.code != 0 {
			w.t.Fatalf("waiting for %s: exit %d\n%s\n%s\nso far: %+v", point, r.code, r.stdout, r.stderr, all)
		}
		time.Sleep(300 * time.Millisecond)
	}
	w.t.Fatalf("no wakeup reached %s in 200 tries: %+v", point, all)
	return nil
}

// crashJournalName is a journal record: "<phase>-<NN>-<op>.json".
var crashJournalName = regexp.MustCompile(`^(initial|remediation-[0-9]+|finalization|finalization-finish)-[0-9]{2}-[a-z-]+\.json$`)

// crashJournal reads every journal record of the run, by phase.
func (w *world) crashJournal(runID string) map[string][]*journal.Entry {
	t := w.t
	t.Helper()
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		t.Fatal(err)
	}
	names, err := os.ReadDir(run.Dir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*journal.Entry{}
	for _, de := range names {
		if !crashJournalName.MatchString(de.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(run.Dir(), de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		e, err := journal.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", de.Name(), err)
		}
		out[e.Phase] = append(out[e.Phase], e)
	}
	return out
}

// crashCheckpoint reads the run's checkpoint.
func (w *world) crashCheckpoint(runID string) *checkpoint.Checkpoint {
	w.t.Helper()
	run, err := statestore.OpenPlan(w.state, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	c, err := checkpoint.Read(run)
	if err != nil {
		w.t.Fatal(err)
	}
	return c
}

// crashRoundCommits counts the commits on the server's head branch whose
// message carries "Prloop-Round: <round>" with the run's trailer.
func (w *world) crashRoundCommits(runID, branch string, round string) int {
	w.t.Helper()
	out, err := exec.Command("git", "--git-dir", w.sim.Bed.GitServer.RepoDir(testbed.Owner, testbed.Name),
		"log", "--format=%B%x00", "refs/heads/"+branch).Output()
	if err != nil {
		w.t.Fatalf("git log %s: %v", branch, err)
	}
	n := 0
	for _, msg := range strings.Split(string(out), "\x00") {
		if strings.Contains(msg, "Prloop-Run: "+runID) && strings.Contains(msg, "Prloop-Round: "+round+"\n") {
			n++
		}
	}
	return n
}

// crashNoTempFiles: no torn or temporary file anywhere in the state root.
func (w *world) crashNoTempFiles() {
	w.t.Helper()
	_ = filepath.WalkDir(w.state, func(p string, de os.DirEntry, err error) error {
		if err == nil && strings.Contains(de.Name(), ".tmp-") {
			w.t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

// crashSimStats are the simulator's request counters.
func (w *world) crashSimStats() ghsim.Stats { return w.sim.Server().Stats() }
