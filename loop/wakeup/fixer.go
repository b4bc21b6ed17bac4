package wakeup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/statestore"
)

// FixerFile holds the run's fixer argv (`start --fixer`), a canonical JSON
// array of strings in the run directory. The loop's first wakeup copies it
// into the checkpoint; absent means no fixer (hand edits, approval-gated).
const FixerFile = "fixer.json"

// WriteFixer records the run's fixer argv (the caller holds the lock).
func WriteFixer(run *statestore.Run, argv []string) error {
	if len(argv) == 0 {
		return errors.New("a fixer needs at least a program")
	}
	data, err := canon.Marshal(argv)
	if err != nil {
		return err
	}
	return run.WriteAtomic(FixerFile, data)
}

func readFixer(run *statestore.Run) ([]string, error) {
	data, err := run.Read(FixerFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var argv []string
	if err := json.Unmarshal(data, &argv); err != nil || len(argv) == 0 {
		return nil, fmt.Errorf("%s: must be a non-empty JSON array of strings", FixerFile)
	}
	return argv, nil
}
