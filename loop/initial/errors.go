package initial

import (
	"errors"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/docdiff"
)

// DriftError: the plan rebuilt immediately before fetch-base does not hash
// to the approved hash. Nothing ran.
type DriftError struct {
	Approved, Rebuilt string
	Changes           []docdiff.Change
}

func (e *DriftError) Error() string {
	paths := make([]string, 0, len(e.Changes))
	for _, c := range e.Changes {
		paths = append(paths, c.Path)
	}
	return fmt.Sprintf("the world changed since the plan was approved; nothing was done. The rebuilt plan hashes to %s, not %s; changed: %s",
		e.Rebuilt, e.Approved, strings.Join(paths, ", "))
}

// HaltError: an operation found the world in a state that is neither
// "not done yet" nor "done as approved". Nothing more runs; the message
// names the operation and what was observed.
type HaltError struct {
	Op  string
	Saw string
}

func (e *HaltError) Error() string { return fmt.Sprintf("%s halted: %s", e.Op, e.Saw) }

func halt(op, format string, args ...any) error {
	return &HaltError{Op: op, Saw: fmt.Sprintf(format, args...)}
}

// ErrCrashed is returned when Deps.Fault stopped the run.
var ErrCrashed = errors.New("stopped by the fault hook")

// ErrInterrupted: the context ended between two operations; everything
// done so far is receipted and `apply` resumes.
var ErrInterrupted = errors.New("interrupted between operations")
