package ghsim

import "time"

// Push is one ref update the git side of GitHub accepted, as a push event
// reports it: Before is all zeros for a created ref, After for a deleted one.
type Push struct {
	Ref    string // full ref name, e.g. refs/heads/main
	Before string
	After  string
	At     time.Time
}

// RecordPush appends a push to the repository's log. The git server calls
// it (through the test bed) for every ref a receive-pack changed; moving
// the branch itself is SetBranch's job.
func (r *Repo) RecordPush(ref, before, after string) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.st.pushes = append(r.st.pushes, Push{Ref: ref, Before: before, After: after, At: r.s.now()})
}

// Pushes returns the repository's push log, oldest first.
func (r *Repo) Pushes() []Push {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return append([]Push(nil), r.st.pushes...)
}
