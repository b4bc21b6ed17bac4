package ghsim

import "time"

// GateScript makes a repository's merge gates change over time the way
// they do on GitHub after a push: CI starts a check run on the new head
// (queued → in_progress → completed), GitHub recomputes mergeability in
// the background (UNKNOWN until then), and the merge state follows the
// checks, the draft flag and the review decision. Without a script the
// gates are whatever was seeded and never move.
type GateScript struct {
	// CheckName is the check run CI starts for every new head (default
	// "ci / test").
	CheckName string
	// CheckDelay is the simulated time from a push until the check run
	// completes (default 2m); it is in_progress from a tenth of it.
	CheckDelay time.Duration
	// Conclusion is how every check run ends (default "success").
	Conclusion string
	// MergeableDelay is how long mergeability stays UNKNOWN after a push
	// (default 5s).
	MergeableDelay time.Duration
	// ReviewDecision is the decision from the PR's opening ("" = null, no
	// review required). ApproveAfter > 0 turns it to APPROVED that long
	// after the first scripted push, as a human reviewer would.
	ReviewDecision string
	ApproveAfter   time.Duration
}

func (g GateScript) withDefaults() GateScript {
	if g.CheckName == "" {
		g.CheckName = "ci / test"
	}
	if g.CheckDelay <= 0 {
		g.CheckDelay = 2 * time.Minute
	}
	if g.Conclusion == "" {
		g.Conclusion = "success"
	}
	if g.MergeableDelay <= 0 {
		g.MergeableDelay = 5 * time.Second
	}
	return g
}

// SetGateScript scripts the merge gates of every pull request in the
// simulator from now on: each later push to a PR's head runs the script.
func (s *Server) SetGateScript(g GateScript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g = g.withDefaults()
	s.gates = &g
}

// gatesPushedLocked runs the script for a new head sha of p.
func (s *Server) gatesPushedLocked(p *pullState, sha string) {
	g := s.gates
	if g == nil || p.pr.State != "open" {
		return
	}
	now := s.now()
	p.pr.Mergeable = "UNKNOWN"
	if !p.gatesScripted {
		p.gatesScripted = true
		p.pr.ReviewDecision = g.ReviewDecision
		if g.ApproveAfter > 0 {
			s.scheduleLocked(now.Add(g.ApproveAfter), func(s *Server, at time.Time) {
				p.pr.ReviewDecision = "APPROVED"
				p.pr.UpdatedAt = maxTime(p.pr.UpdatedAt, at)
				s.recomputeMergeStateLocked(p)
			})
		}
	}
	cr := s.addCheckRunLocked(p.repo, CheckRun{HeadSHA: sha, Name: g.CheckName, Status: "queued", StartedAt: now})
	s.recomputeMergeStateLocked(p)
	s.scheduleLocked(now.Add(g.CheckDelay/10), func(s *Server, at time.Time) {
		if cr.Status == "queued" {
			cr.Status, cr.StartedAt = "in_progress", at
		}
	})
	s.scheduleLocked(now.Add(g.MergeableDelay), func(s *Server, at time.Time) {
		if s.headSHALocked(p) == sha {
			p.pr.Mergeable = "MERGEABLE"
			s.recomputeMergeStateLocked(p)
		}
	})
	s.scheduleLocked(now.Add(g.CheckDelay), func(s *Server, at time.Time) {
		cr.Status, cr.Conclusion, cr.CompletedAt = "completed", g.Conclusion, at
		s.recomputeMergeStateLocked(p)
	})
}

// recomputeMergeStateLocked derives mergeStateStatus as GitHub does for a
// scripted PR: DRAFT, then DIRTY (conflicts), UNKNOWN (not computed yet),
// BLOCKED (a required review missing or a check still running), UNSTABLE
// (a check failed), else CLEAN.
func (s *Server) recomputeMergeStateLocked(p *pullState) {
	if !p.gatesScripted {
		return
	}
	items := rollupContexts(p.repo, s.headSHALocked(p))
	state := "SUCCESS"
	if len(items) > 0 {
		state = rollupState(items)
	}
	switch {
	case p.pr.Draft:
		p.pr.MergeStateStatus = "DRAFT"
	case p.pr.Mergeable == "CONFLICTING":
		p.pr.MergeStateStatus = "DIRTY"
	case p.pr.Mergeable == "UNKNOWN":
		p.pr.MergeStateStatus = "UNKNOWN"
	case p.pr.ReviewDecision == "REVIEW_REQUIRED" || p.pr.ReviewDecision == "CHANGES_REQUESTED" || state == "PENDING":
		p.pr.MergeStateStatus = "BLOCKED"
	case state != "SUCCESS":
		p.pr.MergeStateStatus = "UNSTABLE"
	default:
		p.pr.MergeStateStatus = "CLEAN"
	}
}
