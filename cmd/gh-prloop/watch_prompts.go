package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/remediate"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/tui/watch"
)

// consoleOptions are the remediation options of a watch console's
// wakeups: the live operation list, and the console's prompts as the hand
// edit and diff hooks (the executor hands them on in approval-gated mode
// only). A console closed before the answer is an interruption, not a
// refusal: the executor keeps edit-files reserved and the next wakeup
// resumes there.
func consoleOptions(events func(initial.Event), p *watch.Prompts) wakeup.RemediationOptions {
	interrupt := func(err error) error {
		if errors.Is(err, watch.ErrClosed) {
			return fmt.Errorf("%w: %w", remediate.ErrInterrupted, err)
		}
		return err
	}
	return wakeup.RemediationOptions{
		Events: events,
		WaitForHandEdit: func(ctx context.Context, paths []string) error {
			return interrupt(p.HandEdit(ctx, paths))
		},
		ConfirmDiff: func(ctx context.Context, diff []byte) error {
			return interrupt(p.ConfirmDiff(ctx, diff))
		},
	}
}
