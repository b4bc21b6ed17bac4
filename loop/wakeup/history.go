package wakeup

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/prloop/gh-prloop/statestore"
)

// HistoryFile is the run's wakeup history: one JSON object a line.
const HistoryFile = "history.jsonl"

// MaxHistory bounds the history: the oldest records are dropped first, so
// a loop that waits for days keeps a file of a fixed size.
const MaxHistory = 2000

// Record is one wakeup as the history keeps it.
type Record struct {
	Time          string `json:"time"`
	Action        string `json:"action"`
	Reason        string `json:"reason"`
	Message       string `json:"message"`
	PlanHash      string `json:"plan_hash,omitempty"`
	Done          string `json:"done"`
	Requests      int    `json:"requests"`
	RESTCharged   int    `json:"rest_charged"`
	GraphQLPoints int    `json:"graphql_points"`
}

// appendHistory appends r under the run lock (a whole-file atomic write, so
// a crash never leaves half a line).
func appendHistory(run *statestore.Run, r Record) error {
	old, err := run.Read(HistoryFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	lines := bytes.SplitAfter(old, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if len(lines) >= MaxHistory {
		lines = lines[len(lines)-MaxHistory+1:]
	}
	out := append(bytes.Join(lines, nil), append(line, '\n')...)
	return run.WriteAtomic(HistoryFile, out)
}

// History reads a run's wakeup records, oldest first.
func History(run *statestore.Run) ([]Record, error) {
	data, err := run.Read(HistoryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(l, &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
