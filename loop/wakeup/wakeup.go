// Package wakeup is one wakeup of a loop (issue 8, PROTOCOL §5): under the
// run lock it builds the complete recurring state from fresh observations,
// runs core's evaluator on it, records the wakeup in the run's history and
// does exactly the action the evaluator emitted, nothing else.
package wakeup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/state"
	"github.com/prloop/gh-prloop/statestore"
)

// Exit statuses of `gh-prloop wakeup` (gh's conventions: 8 is "pending").
const (
	ExitOK      = 0
	ExitHalt    = 1
	ExitPending = 8
)

// ActionBusy is reported (never by core) when another gh-prloop holds the
// run's lock: that one acts, this one does nothing.
const ActionBusy = "busy"

// ActionSupersede is the history record (never core's action) of a stored
// plan dropped because fresh observations no longer match it (supersede.go).
const ActionSupersede = "supersede"

// Job is what an executor gets for an execute-* or finish-finalization
// action: the caller holds the run lock and the claim.
type Job struct {
	Run        *statestore.Run
	Checkpoint *checkpoint.Checkpoint
	Action     string
	PlanHash   string
	Manifest   []byte // canonical manifest core validated against State
	State      []byte // canonical recurring state it was validated against
	Snapshot   *state.Snapshot
	// Revalidate rebuilds the state and plan from fresh observations and
	// returns the plan hash; it must equal PlanHash before a side effect.
	Revalidate func(ctx context.Context) (string, error)
	// Save writes the checkpoint after the executor changed it (a new
	// round, finalized_at): the executor never writes it itself.
	Save func(*checkpoint.Checkpoint) error
}

// Executor runs one execute action (loop/remediate, loop/finalize).
type Executor func(ctx context.Context, job Job) (done string, err error)

// Deps are a wakeup's collaborators.
type Deps struct {
	Root     string // the state directory (statestore.Root)
	GitHub   state.GitHub
	Registry *automations.Registry
	Git      *gitx.Runner // observes the checkout when a plan needs it
	Now      func() time.Time
	// Holder names this process in a claim; "" uses host:pid.
	Holder string
	// LockWait is how long to wait for another holder of the run's lock
	// before reporting ActionBusy; 0 tries once.
	LockWait time.Duration
	// Checkout observes the checkout for a plan: the fresh execution
	// boundary, the path records and the resolved validation commands. nil
	// uses LocalCheckout with Git (see checkout.go).
	Checkout Checkout
	// Executors by action; a missing one refuses the action (nothing done).
	Executors map[string]Executor
	// Observed, when set, is handed each wakeup's fresh state (the live
	// console shows its threads and gates without observing GitHub a
	// second time). It must not keep the run lock's caller waiting.
	Observed func(*state.Snapshot)
}

// Outcome is one loop's wakeup: one line of `wakeup --json`.
type Outcome struct {
	Key    string `json:"key"`
	RunID  string `json:"run_id,omitempty"`
	Action string `json:"action"`
	// Actions are the evaluator's actions this wakeup did, in order:
	// Action is the last of them. A plan action is followed by what core
	// says once the plan is stored ([plan-remediation await-approval],
	// [plan-finalization finish-finalization]), so a plan is never hidden
	// behind the action that ends the wakeup.
	Actions  []string `json:"actions"`
	Reason   string   `json:"reason"`
	Message  string   `json:"message"`
	PlanHash string   `json:"plan_hash,omitempty"`
	// Superseded is the hash of the stored plan this wakeup dropped because
	// fresh observations no longer matched it (supersede.go).
	Superseded string        `json:"superseded,omitempty"`
	Done       string        `json:"done"`
	Cost       ghclient.Cost `json:"-"`
	Requests   int           `json:"requests"`
	Points     int           `json:"graphql_points"`
	REST       int           `json:"rest_charged"`
	Exit       int           `json:"exit"`
	Error      string        `json:"error,omitempty"`
}

// RunIDOfKey is the run id a loop key ends with (PROTOCOL §3).
func RunIDOfKey(key string) (string, error) {
	i := strings.LastIndex(key, "/run/")
	if i < 0 || !strings.HasPrefix(key, "github-codex-pr-loop/") {
		return "", fmt.Errorf("%q is not a loop key (github-codex-pr-loop/<owner>/<repo>/pull/<n>/run/<run_id>)", key)
	}
	id := key[i+len("/run/"):]
	if _, err := statestore.PlanKey(id); err != nil {
		return "", fmt.Errorf("loop key %q: %w", key, err)
	}
	return id, nil
}

// OpenRun opens the run directory of a loop key (the run's plan directory,
// where the initial executor kept its journal and prompt document).
func OpenRun(root, key string) (*statestore.Run, error) {
	id, err := RunIDOfKey(key)
	if err != nil {
		return nil, err
	}
	return statestore.OpenPlan(root, id)
}

// All wakes every ACTIVE automation of the registry, in key order, then
// every loop whose finish deleted its automation but died before recording
// its end (unfinished). A loop whose lock another process holds is
// reported busy and skipped.
func All(ctx context.Context, d Deps) ([]Outcome, error) {
	recs, err := d.Registry.List(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Key < recs[j].Key })
	var out []Outcome
	listed := map[string]bool{}
	for _, r := range recs {
		listed[r.Key] = true
		if r.Status != automations.StatusActive {
			continue
		}
		out = append(out, One(ctx, d, r.Key))
	}
	keys, bad, err := unfinished(d.Root, listed)
	if err != nil {
		// The registry's loops were woken; this error is one more outcome.
		return append(out, Outcome{Key: "(unfinished loops)"}.fail(err)), nil
	}
	for _, k := range keys {
		out = append(out, One(ctx, d, k))
	}
	return append(out, bad...), nil
}

// One wakes the loop key once. Errors are part of the outcome (Exit 1), so
// that --all carries on with the next loop.
func One(ctx context.Context, d Deps, key string) Outcome {
	o := Outcome{Key: key, Actions: []string{}}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Holder == "" {
		host, _ := os.Hostname()
		d.Holder = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	run, err := OpenRun(d.Root, key)
	if err != nil {
		return o.fail(err)
	}
	o.RunID, _ = RunIDOfKey(key)
	run.LockTimeout = d.LockWait
	if run.LockTimeout <= 0 {
		run.LockTimeout = time.Millisecond
	}
	unlock, err := run.Lock(ctx)
	if errors.Is(err, statestore.ErrBusy) {
		o.Action, o.Reason, o.Message = ActionBusy, "locked", "another gh-prloop is acting on this loop; it does this wakeup"
		return o
	}
	if err != nil {
		return o.fail(err)
	}
	defer unlock()
	w := &waker{d: d, run: run, key: key}
	o = w.wake(ctx, o)
	rec := Record{Time: schema.FormatTime(d.Now()), Action: o.Action, Reason: o.Reason, Message: o.Message, PlanHash: o.PlanHash,
		Done: o.Done, Requests: o.Cost.Requests, RESTCharged: o.Cost.RESTCharged, GraphQLPoints: o.Cost.GraphQLPoints}
	if o.Error != "" {
		rec.Action, rec.Message = "error", o.Error
	}
	if err := appendHistory(run, rec); err != nil && o.Error == "" {
		return o.fail(err)
	}
	return o
}

func (o Outcome) fail(err error) Outcome {
	o.Error, o.Exit = err.Error(), ExitHalt
	if o.Action == "" {
		o.Action = "error"
	}
	return o
}

func (o *Outcome) addCost(c ghclient.Cost) {
	o.Cost.Add(c)
	o.Requests, o.Points, o.REST = o.Cost.Requests, o.Cost.GraphQLPoints, o.Cost.RESTCharged
}

// waker is one wakeup under the lock.
type waker struct {
	d   Deps
	run *statestore.Run
	key string
	cp  *checkpoint.Checkpoint
	// superseded counts the stored plans this wakeup replaced (supersede.go).
	superseded int
}

// checkpoint reads the run's checkpoint, creating it from the kept prompt
// document on the loop's first wakeup.
func (w *waker) checkpoint() (*checkpoint.Checkpoint, error) {
	c, err := checkpoint.Read(w.run)
	if err == nil || !errors.Is(err, checkpoint.ErrNone) {
		if err == nil && c.AutomationKey != w.key {
			return nil, fmt.Errorf("the run's checkpoint is for %s, not %s", c.AutomationKey, w.key)
		}
		return c, err
	}
	doc, err := w.run.Read(initial.PromptDocumentFile)
	if err != nil {
		return nil, fmt.Errorf("the run has no checkpoint and no bootstrap prompt document: %w", err)
	}
	in, err := initial.ReadInputs(w.run)
	if err != nil {
		return nil, err
	}
	fixer, err := readFixer(w.run)
	if err != nil {
		return nil, err
	}
	if c, err = checkpoint.FromPromptDocument(doc, in.Validate, fixer); err != nil {
		return nil, err
	}
	if c.AutomationKey != w.key {
		return nil, fmt.Errorf("the run bootstrapped %s, not %s", c.AutomationKey, w.key)
	}
	return c, checkpoint.Write(w.run, c)
}

func (w *waker) save() error { return checkpoint.Write(w.run, w.cp) }

func (w *waker) wake(ctx context.Context, o Outcome) Outcome {
	var err error
	if w.cp, err = w.checkpoint(); err != nil {
		return o.fail(err)
	}
	released := ""
	if cl := w.cp.Claim; cl != nil && abandoned(cl.Holder) {
		w.cp.Claim = nil
		if err := w.save(); err != nil {
			return o.fail(err)
		}
		released = "released the claim of " + cl.Holder + ", which no longer runs; "
	}
	if ok, err := w.receiptRecordedRound(); err != nil {
		return o.fail(err)
	} else if ok {
		released += fmt.Sprintf("receipted fix round %d's %s from the checkpoint that recorded it; ", w.cp.FixRounds, policy.OpUpdateAutomation)
	}
	// An execution that was interrupted after its first reservation is
	// finished before anything is evaluated: its own side effects (a pushed
	// head, a new request) would otherwise read as drift. Its journal
	// reconciles every reserved operation by observation. Only without a
	// claim, though: a claim still here belongs to a holder that may be
	// running (another machine, a pid that still exists), and resuming
	// over it could act twice; core decides on it below (wait while live,
	// stale-claim once expired).
	if w.cp.Claim == nil {
		if started, err := w.interrupted(); err != nil {
			return o.fail(err)
		} else if started != "" {
			o = w.resume(ctx, o, started)
			o.Done = released + o.Done
			return o
		}
	}
	// A stored plan is bound to a fresh execution boundary: observe the
	// checkout only then (or when a new plan needs one, below).
	var boundary *schema.Boundary
	if w.cp.RemediationManifest != nil {
		if boundary, err = w.checkout().Boundary(ctx, w.run); err != nil {
			return o.fail(err)
		}
	}
	snap, err := state.Build(ctx, state.Deps{GitHub: w.d.GitHub, Registry: w.d.Registry}, w.cp, boundary)
	if snap != nil {
		o.addCost(snap.Cost)
	}
	if err != nil {
		return o.fail(err)
	}
	if w.d.Observed != nil {
		w.d.Observed(snap)
	}
	if snap.RequestNodeID != "" && snap.RequestNodeID != w.cp.RequestNodeID {
		w.cp.RequestNodeID = snap.RequestNodeID
		if err := w.save(); err != nil {
			return o.fail(err)
		}
	}
	res, err := evaluateSnap(snap)
	if err != nil {
		return o.fail(err)
	}
	// A stored plan the world has moved away from, whose execution has not
	// started (an interrupted one was resumed above), is replaced by the
	// plan this observation calls for (supersede.go).
	if r := w.stale(ctx, w.cp, snap, res); r != nil {
		o = w.supersede(ctx, o, r)
	} else {
		o = w.act(ctx, o, snap, res)
	}
	o.Done = released + o.Done
	return o
}

func evaluateSnap(snap *state.Snapshot) (evaluate.Result, error) {
	raw, err := canon.Parse(snap.Canonical)
	if err != nil {
		return evaluate.Result{}, err
	}
	return evaluate.Evaluate(raw), nil
}

// act does exactly what res says.
func (w *waker) act(ctx context.Context, o Outcome, snap *state.Snapshot, res evaluate.Result) Outcome {
	o.Action, o.Reason, o.Message, o.PlanHash = res.Action, res.Reason, res.Message, res.PlanHash
	o.Actions = append(o.Actions, res.Action)
	switch res.Action {
	case evaluate.ActionWait, evaluate.ActionReport:
		o.Done = "nothing"
	case evaluate.ActionDone:
		o.Done = "nothing: the loop is finalized"
	case evaluate.ActionHalt:
		if len(res.Errors) > 0 {
			o.Message += ": " + res.Errors.Error()
		}
		if _, err := w.d.Registry.Pause(ctx, w.key, "halt: "+res.Reason+": "+res.Message, w.d.Now()); err != nil && !errors.Is(err, automations.ErrNotFound) {
			return o.fail(err)
		}
		o.Done, o.Exit = "paused the automation: "+res.Reason, ExitHalt
	case evaluate.ActionAwaitApproval:
		o.Done = fmt.Sprintf("waiting for approval: gh-prloop approve %s --hash %s", w.key, res.PlanHash)
		o.Exit = ExitPending
	case evaluate.ActionPlanRemediation, evaluate.ActionPlanFinalization:
		return w.plan(ctx, o, snap, res.Action)
	case evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization:
		return w.execute(ctx, o, snap, res)
	default:
		return o.fail(fmt.Errorf("the evaluator emitted an unknown action %q", res.Action))
	}
	return o
}
