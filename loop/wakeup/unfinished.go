package wakeup

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/finalize"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/statestore"
)

// finishRecord is the journal record of the post-mutation plan's only
// operation (journal.Journal.Name of operation 0 of finalize.PhaseFinish).
var finishRecord = fmt.Sprintf("%s-%02d-%s.json", finalize.PhaseFinish, 0, policy.OpDeleteAutomation)

// unfinished returns the loops whose finish-finalization deleted the
// automation and died before it recorded its end (the deletion's receipt,
// then finalized_at). The registry no longer lists them, so without this
// `wakeup --all` — the timer — would never wake them again and their end
// would stay unrecorded forever; One resumes them like any interrupted
// execution. listed are the registry's keys (any status): those are woken
// through the registry. A record that cannot be read is reported as an
// error outcome of its run, never acted on.
func unfinished(root string, listed map[string]bool) (keys []string, bad []Outcome, err error) {
	runs, err := statestore.KeysWith(root, finishRecord)
	if err != nil {
		return nil, nil, err
	}
	for _, rk := range runs {
		run, err := statestore.Open(root, rk)
		if err != nil {
			bad = append(bad, Outcome{Key: rk}.fail(err))
			continue
		}
		data, err := run.Read(finishRecord)
		if err != nil {
			bad = append(bad, Outcome{Key: rk}.fail(err))
			continue
		}
		e, err := journal.Decode(data)
		if err != nil {
			bad = append(bad, Outcome{Key: rk}.fail(fmt.Errorf("%s: %w", finishRecord, err)))
			continue
		}
		loop := e.Intent["key"]
		if id, err := RunIDOfKey(loop); err != nil || "plan/"+id != rk {
			bad = append(bad, Outcome{Key: rk}.fail(fmt.Errorf("%s names the loop %q, not one of this run", finishRecord, loop)))
			continue
		}
		if listed[loop] {
			continue
		}
		if e.Done() {
			c, err := checkpoint.Read(run)
			if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, checkpoint.ErrNone) {
				bad = append(bad, Outcome{Key: loop}.fail(err))
				continue
			}
			if err == nil && c.FinalizedAt != nil {
				continue // finished: its end is recorded
			}
		}
		keys = append(keys, loop)
	}
	return keys, bad, nil
}
