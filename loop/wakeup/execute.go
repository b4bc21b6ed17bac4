package wakeup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/state"
)

// execute takes the claim (policy TTL), hands the validated plan to the
// action's executor, and releases the claim when the executor returns. A
// process that dies in between leaves the claim to expire: core then halts
// the loop with stale-claim for a human to look at.
func (w *waker) execute(ctx context.Context, o Outcome, snap *state.Snapshot, res evaluate.Result) Outcome {
	ex := w.d.Executors[res.Action]
	if ex == nil {
		return o.fail(fmt.Errorf("this build cannot %s yet; nothing was done", res.Action))
	}
	var manifest any = w.cp.RemediationManifest
	if res.Action != evaluate.ActionExecuteRemediation {
		manifest = w.cp.FinalizationManifest
	}
	mBytes, err := canon.Marshal(manifest)
	if err != nil {
		return o.fail(err)
	}
	// The state core approved the execution on is kept: an interrupted
	// execution resumes against it, since the world it changed since (a
	// pushed head) no longer evaluates to the same action.
	var stateBytes []byte
	if snap != nil {
		stateBytes = snap.Canonical
		if err := w.run.WriteAtomic(ExecStateFile, stateBytes); err != nil {
			return o.fail(err)
		}
	} else if stateBytes, err = w.run.Read(ExecStateFile); err != nil {
		return o.fail(fmt.Errorf("resuming: the state the execution was approved on: %w", err))
	}
	now := w.d.Now().UTC()
	w.cp.Claim = &schema.Claim{
		ClaimedAt:  schema.FormatTime(now),
		ExpiresAt:  schema.FormatTime(now.Add(policy.ClaimTTLSecs * time.Second)),
		Holder:     w.d.Holder,
		PlanHash:   res.PlanHash,
		RequestKey: w.cp.RequestKey(),
	}
	if err := w.save(); err != nil {
		return o.fail(err)
	}
	job := Job{
		Run: w.run, Checkpoint: w.cp, Action: res.Action, PlanHash: res.PlanHash,
		Manifest: mBytes, State: stateBytes, Snapshot: snap,
		Revalidate: func(ctx context.Context) (string, error) { return w.revalidate(ctx, res.Action) },
		Save: func(c *checkpoint.Checkpoint) error {
			w.cp = c
			return w.save()
		},
	}
	done, xerr := ex(ctx, job)
	w.cp.Claim = nil
	if err := w.save(); err != nil && xerr == nil {
		xerr = err
	}
	if xerr != nil {
		// Re-validation found the plan stale before its first side effect:
		// it is superseded and this wakeup plans again.
		var se *StaleError
		if errors.As(xerr, &se) {
			// The superseded attempt did nothing: it is not one of the
			// actions this wakeup did (the replacement's are appended).
			if n := len(o.Actions); n > 0 && o.Actions[n-1] == res.Action {
				o.Actions = o.Actions[:n-1]
			}
			return w.supersede(ctx, o, se.r)
		}
		var h *HaltError
		if errors.As(xerr, &h) {
			o.Action, o.Reason, o.Message = evaluate.ActionHalt, h.Reason, h.Message
			o.Actions = append(o.Actions, evaluate.ActionHalt)
			if _, err := w.d.Registry.Pause(ctx, w.key, "halt: "+h.Reason+": "+h.Message, w.d.Now()); err != nil && !errors.Is(err, automations.ErrNotFound) {
				return o.fail(err)
			}
			o.Done, o.Exit = "paused the automation: "+h.Reason, ExitHalt
			return o
		}
		return o.fail(xerr)
	}
	o.Done = done
	return o
}

// ExecStateFile keeps the canonical state of the execution under way.
const ExecStateFile = "execute-state.json"

// HaltError is an executor's halt: the loop is paused with Reason.
type HaltError struct{ Reason, Message string }

func (e *HaltError) Error() string { return e.Reason + ": " + e.Message }

// revalidate rebuilds the state from fresh observations with the claim set
// aside (the claim is this wakeup's own) and returns the hash of the plan
// core would execute now; the executor compares it with the approved one.
func (w *waker) revalidate(ctx context.Context, action string) (string, error) {
	c := *w.cp
	c.Claim = nil
	var b *schema.Boundary
	var err error
	if c.RemediationManifest != nil {
		if b, err = w.checkout().Boundary(ctx, w.run); err != nil {
			return "", err
		}
	}
	snap, err := state.Build(ctx, state.Deps{GitHub: w.d.GitHub, Registry: w.d.Registry}, &c, b)
	if err != nil {
		return "", err
	}
	res, err := evaluateSnap(snap)
	if err != nil {
		return "", err
	}
	// Nothing has run yet (the executors re-validate only before their
	// first reservation): a plan the world moved away from is superseded.
	if r := w.stale(ctx, &c, snap, res); r != nil {
		return "", &StaleError{r: r}
	}
	if res.Action != action {
		return "", &HaltError{Reason: res.Reason, Message: "re-validation before the first side effect: " + res.Message}
	}
	return res.PlanHash, nil
}
