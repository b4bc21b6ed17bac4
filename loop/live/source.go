package live

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/state"
	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/loop/wakeup"
)

// Source is one loop as the console reads and drives it.
type Source struct {
	Deps wakeup.Deps // as `gh-prloop wakeup` builds them
	Key  string

	mu       sync.Mutex
	snap     *state.Snapshot // the last wakeup's fresh state; nil before one
	last     status.Loop     // the last loop Load built
	progress func(status.Loop)
	exec     *status.Execution // the operations of the wakeup running now
	ops      []status.Entry    // operations this process saw executed, for the history
}

// Load reads the loop from the state directory. It makes no GitHub
// request.
func (s *Source) Load(ctx context.Context) (status.Loop, error) {
	run, err := wakeup.OpenRun(s.Deps.Root, s.Key)
	if err != nil {
		return status.Loop{}, err
	}
	l := status.Loop{Key: s.Key, MaxRounds: policy.MaxFixRounds}
	l.RunID, _ = wakeup.RunIDOfKey(s.Key)
	cp, err := checkpoint.Read(run)
	switch {
	case errors.Is(err, checkpoint.ErrNone):
		l.Err = "the loop has not had its first wakeup yet"
	case err != nil:
		return status.Loop{}, err
	default:
		fromCheckpoint(&l, cp)
	}
	hist, err := wakeup.History(run)
	if err != nil {
		return status.Loop{}, fmt.Errorf("history: %w", err)
	}
	fromHistory(&l, hist, cp)
	if s.Deps.Registry != nil {
		rec, ok, err := s.Deps.Registry.Get(ctx, s.Key)
		if err != nil {
			return status.Loop{}, err
		}
		if ok {
			l.Automation = status.Automation{Status: rec.Status, Reason: rec.Reason, RRule: rec.RRule}
		}
	}
	l.NextWakeup = nextWakeup(l, hist, s.now())
	s.mu.Lock()
	snap := s.snap
	l.History = mergeOps(l.History, s.ops)
	s.mu.Unlock()
	if snap != nil {
		fromSnapshot(&l, snap)
	} else if l.Err == "" {
		l.Err = "threads and gates show after this console's first wakeup (r)"
	}
	s.mu.Lock()
	s.last = l
	s.mu.Unlock()
	return l, nil
}

// mergeOps adds the operations this process saw executed to the wakeup
// records, in time order (an operation before the wakeup record it belongs
// to, which is written when the wakeup ends).
func mergeOps(hist, ops []status.Entry) []status.Entry {
	if len(ops) == 0 {
		return hist
	}
	out := make([]status.Entry, 0, len(hist)+len(ops))
	i, j := 0, 0
	for i < len(hist) || j < len(ops) {
		if j >= len(ops) || (i < len(hist) && hist[i].Time.Before(ops[j].Time)) {
			out = append(out, hist[i])
			i++
		} else {
			out = append(out, ops[j])
			j++
		}
	}
	return out
}

// Event takes one executor event (loop/initial's shape, which the
// remediation and finalization executors share) into the live operation
// list and the history, and reports the loop to the running wakeup's
// progress callback. Everything in it is shown sanitized by the console.
func (s *Source) Event(e initial.Event) {
	s.mu.Lock()
	if e.Of > 0 && (s.exec == nil || len(s.exec.Operations) != e.Of) {
		s.exec = &status.Execution{Operations: make([]status.Operation, e.Of)}
		for i := range s.exec.Operations {
			s.exec.Operations[i].State = status.OpPending
		}
	}
	at := parseTime(e.Time)
	if at.IsZero() {
		at = s.now()
	}
	if s.exec != nil && e.Index >= 0 && e.Index < len(s.exec.Operations) {
		op := &s.exec.Operations[e.Index]
		op.Name = e.Op
		switch e.Event {
		case initial.EventStarted:
			op.State = status.OpRunning
		case initial.EventFinished:
			op.State, op.Receipt = status.OpDone, receipt(e)
			s.ops = append(s.ops, status.Entry{Time: at, Kind: status.EntryOperation, Op: e.Op, Receipt: op.Receipt})
		case initial.EventFailed:
			op.State, op.Message = status.OpFailed, e.Detail
			s.ops = append(s.ops, status.Entry{Time: at, Kind: status.EntryOperation, Op: e.Op, Failed: true, Message: e.Detail})
		}
	}
	l, progress := s.last, s.progress
	if s.exec != nil {
		ex := *s.exec
		ex.Operations = append([]status.Operation(nil), s.exec.Operations...)
		l.Execution = &ex
	}
	l.History = mergeOps(l.History, nil)
	s.mu.Unlock()
	if progress != nil {
		progress(l)
	}
}

// receipt is the one result a human looks for in an operation's receipt.
func receipt(e initial.Event) string {
	for _, k := range []string{"commit_sha", "remote_head_sha", "comment_id", "pr_url", "automation_key"} {
		if v, ok := e.Receipt[k]; ok {
			if strings.HasSuffix(k, "_sha") && len(v) > 12 {
				v = v[:12]
			}
			s := strings.TrimSuffix(k, "_sha") + " " + v
			if e.Reconciled {
				s += " (found, not repeated)"
			}
			return s
		}
	}
	if e.Reconciled {
		return "found, not repeated"
	}
	return ""
}

// Wakeup runs one wakeup of the loop, exactly as `gh-prloop wakeup KEY`,
// and returns the loop as it left it. Another holder of the run lock makes
// it return status.ErrLocked: that one acts.
func (s *Source) Wakeup(ctx context.Context, progress func(status.Loop)) (status.Loop, error) {
	d := s.Deps
	prev := d.Observed
	d.Observed = func(snap *state.Snapshot) {
		s.mu.Lock()
		s.snap = snap
		s.mu.Unlock()
		if prev != nil {
			prev(snap)
		}
	}
	s.mu.Lock()
	s.progress, s.exec = progress, nil
	s.mu.Unlock()
	o := wakeup.One(ctx, d, s.Key)
	s.mu.Lock()
	s.progress, s.exec = nil, nil
	s.mu.Unlock()
	if o.Action == wakeup.ActionBusy {
		return status.Loop{}, fmt.Errorf("%s: %w", o.Message, status.ErrLocked)
	}
	l, err := s.Load(ctx)
	if err != nil {
		return l, err
	}
	if o.Error != "" {
		return l, errors.New(o.Error)
	}
	return l, nil
}

// Observation is the pull request as the last wakeup of this source
// observed it; nil before one.
func (s *Source) Observation() *observe.PR {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snap == nil {
		return nil
	}
	return s.snap.Obs
}

func (s *Source) now() time.Time {
	if s.Deps.Now != nil {
		return s.Deps.Now()
	}
	return time.Now()
}

// List reads every loop of the registry (any status), in key order.
func List(ctx context.Context, d wakeup.Deps) ([]status.Loop, error) {
	recs, err := d.Registry.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []status.Loop
	for _, r := range recs {
		src := &Source{Deps: d, Key: r.Key}
		l, err := src.Load(ctx)
		if err != nil {
			l = status.Loop{Key: r.Key, Automation: status.Automation{Status: r.Status, Reason: r.Reason}, Err: err.Error()}
		}
		out = append(out, l)
	}
	return out, nil
}

func parseTime(s string) time.Time {
	t, err := schema.ParseTime(s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func fromCheckpoint(l *status.Loop, cp *checkpoint.Checkpoint) {
	l.RunID, l.Repository, l.Number, l.Mode, l.Round = cp.RunID, cp.Repository, cp.PRNumber, cp.Mode, int(cp.FixRounds)
	l.URL = fmt.Sprintf("https://github.com/%s/pull/%d", cp.Repository, cp.PRNumber)
	if cp.RequestCommentID != 0 {
		l.Request = &status.Request{CommentID: cp.RequestCommentID, HeadSHA: cp.RequestHeadSHA,
			CreatedAt: parseTime(cp.RequestCreatedAt), Deadline: parseTime(cp.RequestDeadline)}
	}
	if cp.FinalizedAt != nil {
		l.FinalizedAt = parseTime(*cp.FinalizedAt)
	}
	if r := cp.MergeGateReport; r != nil {
		g := r.Gates
		l.MergeGate = fmt.Sprintf("merge gates read %s: approvals %s, branch protection %s, checks %s, mergeability %s",
			r.ReadAt, g.Approvals, g.BranchProtection, g.Checks, g.Mergeability)
	}
}

// fromHistory fills the history and, from the latest record, the
// evaluator's last decision.
func fromHistory(l *status.Loop, hist []wakeup.Record, cp *checkpoint.Checkpoint) {
	for _, r := range hist {
		l.History = append(l.History, status.Entry{Time: parseTime(r.Time), Kind: status.EntryWakeup, Action: r.Action, Reason: r.Reason,
			Requests: r.Requests, Points: r.GraphQLPoints, Message: r.Message, Failed: r.Action == "error"})
	}
	if len(hist) == 0 {
		return
	}
	last := hist[len(hist)-1]
	l.Next = status.Next{Action: last.Action, Reason: last.Reason, Message: last.Message, PlanHash: last.PlanHash}
	l.ObservedAt = parseTime(last.Time)
	if executed(last) {
		if last.Action == evaluate.ActionFinishFinalization && cp != nil && cp.FinalizedAt != nil {
			// The finish recorded the end: the loop is done, as the
			// evaluator says of a finalized state (not "the plan was
			// executed" under a done loop); the console shows the time
			// on a line of its own, so the reason carries no message.
			l.Next = status.Next{Action: evaluate.ActionDone, Reason: evaluate.ReasonFinalized}
			return
		}
		// The wakeup carried its action out: what comes next is only known
		// once the next wakeup observes the result (a reopened console must
		// not offer to execute a plan that already ran).
		l.Next = status.Next{Action: evaluate.ActionWait, Reason: status.ReasonExecuted, Message: last.Done}
		return
	}
	if cp != nil && last.PlanHash != "" {
		switch {
		case cp.RemediationPlanHash != nil && *cp.RemediationPlanHash == last.PlanHash:
			l.Next.PlanKind = "remediation"
		case cp.FinalizationPlanHash != nil && *cp.FinalizationPlanHash == last.PlanHash:
			l.Next.PlanKind = "finalization"
		}
	}
}

// nextWakeup is when the rrule next wakes the loop: the last wakeup plus
// the rule's interval (now, when it never woke). Only an ACTIVE loop has
// one.
func nextWakeup(l status.Loop, hist []wakeup.Record, now time.Time) time.Time {
	if l.Automation.Status != automations.StatusActive {
		return time.Time{}
	}
	if len(hist) == 0 {
		return now
	}
	return parseTime(hist[len(hist)-1].Time).Add(Interval(l.Automation.RRule))
}

// Interval is the period of an RFC 5545 rule of the kind the policy uses
// (FREQ=MINUTELY|HOURLY|SECONDLY with INTERVAL); anything else is the
// policy heartbeat's two minutes.
func Interval(rrule string) time.Duration {
	unit, n := time.Duration(0), 1
	for _, part := range strings.Split(rrule, ";") {
		k, v, _ := strings.Cut(part, "=")
		switch strings.ToUpper(k) {
		case "FREQ":
			switch strings.ToUpper(v) {
			case "SECONDLY":
				unit = time.Second
			case "MINUTELY":
				unit = time.Minute
			case "HOURLY":
				unit = time.Hour
			}
		case "INTERVAL":
			if i, err := strconv.Atoi(v); err == nil && i > 0 {
				n = i
			}
		}
	}
	if unit == 0 {
		return 2 * time.Minute
	}
	return time.Duration(n) * unit
}

// fromSnapshot adds what only a fresh observation knows: the title, the
// threads with their bodies, the gates and Codex's live state.
func fromSnapshot(l *status.Loop, snap *state.Snapshot) {
	obs, c := snap.Obs, snap.Classified
	if obs == nil {
		return
	}
	pr := obs.PullRequest
	l.Title = pr.Title
	if pr.URL != "" {
		l.URL = pr.URL
	}
	if t := parseTime(obs.ObservedAt); !t.IsZero() {
		l.ObservedAt = t
	}
	g := c.Gates
	l.Gates = []status.Gate{
		{Name: "approvals", State: g.Approvals}, {Name: "branch protection", State: g.BranchProtection},
		{Name: "checks", State: g.Checks}, {Name: "mergeability", State: g.Mergeability},
	}
	if l.Request != nil {
		switch {
		case len(c.Notices) > 0:
			n := c.Notices[0]
			l.Request.Codex, l.Request.Notice = status.CodexNotice, n.Kind+": "+n.Text
		case c.Live.Reviewing:
			l.Request.Codex = status.CodexRunning
		case len(c.Responses) > 0:
			l.Request.Codex = status.CodexAnswered
			for _, r := range c.Responses {
				if r.ZeroFindingsSignal {
					l.Request.Codex = status.CodexThumbsUp
				}
			}
		case c.Live.SummaryState != "":
			l.Request.Codex, l.Request.Summary = status.CodexSummary, c.Live.SummaryState
		}
	}
	kind := map[string]string{}
	for _, t := range c.Actionable {
		kind[t.ID] = "actionable"
	}
	for _, t := range c.Eligible {
		kind[t.ID] = "eligible"
	}
	for _, t := range obs.Threads {
		th := status.Thread{ID: t.ID, Path: t.Path, Kind: kind[t.ID]}
		for _, p := range []*int64{t.Line, t.OriginalLine, t.StartLine} {
			if p != nil && th.Line == 0 {
				th.Line = *p
			}
		}
		if len(t.Comments) > 0 {
			root := t.Comments[0]
			th.Author, th.Body = root.Author.Login, root.Body
			th.Priority, th.Title = classify.ParseFinding(root.Body)
			if th.Title == "" {
				th.Title, _, _ = strings.Cut(root.Body, "\n")
			}
			if l.URL != "" {
				th.URL = fmt.Sprintf("%s#discussion_r%d", l.URL, root.ID)
			}
		}
		if th.Kind == "" {
			th.Kind = "non-codex"
			if t.IsResolved {
				th.Kind = "resolved"
			}
		}
		l.Threads = append(l.Threads, th)
	}
}

// executed reports whether a history record is an execute action that
// finished (a failure is recorded as "error", a halt as "halt").
func executed(r wakeup.Record) bool {
	switch r.Action {
	case evaluate.ActionExecuteRemediation, evaluate.ActionExecuteFinalization, evaluate.ActionFinishFinalization:
		return r.Done != ""
	}
	return false
}
