package manage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// ErrNeedsConfirmation refuses to delete a live loop's automation without
// a human at a terminal or --yes.
var ErrNeedsConfirmation = errors.New("refusing to delete an ACTIVE automation without confirmation")

// ConfirmWord is what the human types to delete a live loop's automation.
const ConfirmWord = "delete"

// NeedsConfirmation: an ACTIVE automation belongs to a live loop, whose
// next wakeup would find it gone and halt; a PAUSED one is already stopped.
func NeedsConfirmation(r automations.Record) bool { return r.Status == automations.StatusActive }

// ConfirmDelete decides whether r may be deleted: yes (--yes) or a paused
// automation pass; otherwise a terminal (interactive) asks the human to
// type ConfirmWord on in, and without one the delete is refused with
// ErrNeedsConfirmation. It returns false, nil when the human declined.
func ConfirmDelete(r automations.Record, yes, interactive bool, in io.Reader, out io.Writer) (bool, error) {
	if yes || !NeedsConfirmation(r) {
		return true, nil
	}
	if !interactive {
		return false, fmt.Errorf("%w: %s is the automation of a live loop; run on a terminal to confirm, or pass --yes", ErrNeedsConfirmation, r.Key)
	}
	fmt.Fprintf(out, "%s is ACTIVE: a loop is running on it (%s), and its next wakeup will find it gone.\n", sanitize.Line(r.Key, 1024), sanitize.Line(r.Name, 80))
	fmt.Fprintf(out, "Pausing it (`gh-prloop automations pause`) keeps everything for inspection.\nType %q to delete it: ", ConfirmWord)
	line, err := bufio.NewReader(io.LimitReader(in, 1024)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return strings.TrimSpace(line) == ConfirmWord, nil
}
