package ghsim

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// RepoSpec describes a repository to seed.
type RepoSpec struct {
	Owner         Account // registered if new; Type defaults to User
	Name          string
	DefaultBranch string // default "main"
	Private       bool
}

// Repo is a handle on a seeded repository. Its methods are safe for
// concurrent use with requests.
type Repo struct {
	s  *Server
	st *repoState
}

// AddRepo seeds a repository (or returns the existing one of that name).
func (s *Server) AddRepo(spec RepoSpec) *Repo {
	s.mu.Lock()
	defer s.mu.Unlock()
	owner := s.accountLocked(spec.Owner)
	key := strings.ToLower(owner.Login + "/" + spec.Name)
	if st, ok := s.repos[key]; ok {
		return &Repo{s: s, st: st}
	}
	if spec.DefaultBranch == "" {
		spec.DefaultBranch = "main"
	}
	st := &repoState{
		id:            s.ids.take("repo"),
		nodeID:        s.ids.node(prefixRepo),
		owner:         owner,
		name:          spec.Name,
		defaultBranch: spec.DefaultBranch,
		private:       spec.Private,
		branches:      map[string]string{},
		protected:     map[string]bool{},
		rules:         map[string][]map[string]any{},
	}
	s.repos[key] = st
	s.nodes[st.nodeID] = nodeRef{kind: "Repository", v: st}
	return &Repo{s: s, st: st}
}

// Repo returns the handle of a seeded repository ("owner/name", any case).
func (s *Server) Repo(fullName string) (*Repo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.repos[strings.ToLower(fullName)]
	if !ok {
		return nil, false
	}
	return &Repo{s: s, st: st}, true
}

// FullName is "owner/name" as seeded.
func (r *Repo) FullName() string { return r.st.fullName() }

// NodeID is the repository's GraphQL id (createPullRequest's repositoryId).
func (r *Repo) NodeID() string { return r.st.nodeID }

// AddCommit records metadata for a SHA (message, parents, date).
func (r *Repo) AddCommit(c Commit) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.addCommitLocked(c)
}

func (s *Server) addCommitLocked(c Commit) *Commit {
	if old, ok := s.commits[c.SHA]; ok && c.Message == "" {
		return old
	}
	if c.Date.IsZero() {
		c.Date = s.now()
	}
	if c.Message == "" {
		c.Message = "Update " + short(c.SHA, 7)
	}
	if c.Author == "" {
		c.Author = "The Octocat"
	}
	p := &c
	s.commits[c.SHA] = p
	return p
}

// SetBranch points a branch at sha, creating it if needed. Moving the head
// branch of an open PR is a push: see PR.Push for what that implies.
func (r *Repo) SetBranch(name, sha string) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.setBranchLocked(r.st, name, sha)
}

func (s *Server) setBranchLocked(st *repoState, name, sha string) {
	s.addCommitLocked(Commit{SHA: sha})
	old := st.branches[name]
	st.branches[name] = sha
	if old == sha {
		return
	}
	for _, p := range st.pulls {
		if p.pr.Head == name && p.pr.HeadRepo == "" && p.pr.State == "open" {
			s.pushedLocked(p, sha)
		}
	}
}

// Branch returns the tip of a branch.
func (r *Repo) Branch(name string) (string, bool) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	sha, ok := r.st.branches[name]
	return sha, ok
}

// SetProtected marks a branch as protected in GET /branches/{branch}.
func (r *Repo) SetProtected(branch string, protected bool) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.st.protected[branch] = protected
}

// SetBranchRules sets what GET /rules/branches/{branch} returns (GitHub's
// repository-rule objects, e.g. {"type":"pull_request","ruleset_id":1,...}).
func (r *Repo) SetBranchRules(branch string, rules []map[string]any) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.st.rules[branch] = rules
}

// AddCheckRun seeds a check run; ID and NodeID are assigned when zero.
func (r *Repo) AddCheckRun(cr CheckRun) CheckRun {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return *r.s.addCheckRunLocked(r.st, cr)
}

func (s *Server) addCheckRunLocked(st *repoState, cr CheckRun) *CheckRun {
	if cr.ID == 0 {
		cr.ID = s.ids.take("check-run")
	}
	if cr.NodeID == "" {
		cr.NodeID = s.ids.node(prefixCheckRun)
	}
	if cr.Status == "" {
		cr.Status = "completed"
	}
	if cr.StartedAt.IsZero() {
		cr.StartedAt = s.now()
	}
	if cr.Status == "completed" && cr.CompletedAt.IsZero() {
		cr.CompletedAt = cr.StartedAt
	}
	if cr.DetailsURL == "" {
		cr.DetailsURL = fmt.Sprintf("%s/%s/actions/runs/%d", s.opts.WebURL, st.fullName(), cr.ID)
	}
	p := &cr
	st.checkRuns = append(st.checkRuns, p)
	s.nodes[cr.NodeID] = nodeRef{kind: "CheckRun", v: p}
	return p
}

// UpdateCheckRun changes a check run's status and conclusion (e.g. to
// complete a pending run); it reports whether the run exists.
func (r *Repo) UpdateCheckRun(id int64, status, conclusion string) bool {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	for _, cr := range r.st.checkRuns {
		if cr.ID == id {
			cr.Status, cr.Conclusion = status, conclusion
			if status == "completed" {
				cr.CompletedAt = r.s.now()
			}
			return true
		}
	}
	return false
}

// AddStatus seeds a commit status; ID and NodeID are assigned when zero.
func (r *Repo) AddStatus(st CommitStatus) CommitStatus {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	s := r.s
	if st.ID == 0 {
		st.ID = s.ids.take("status")
	}
	if st.NodeID == "" {
		st.NodeID = s.ids.node(prefixStatus)
	}
	if st.CreatedAt.IsZero() {
		st.CreatedAt = s.now()
	}
	if st.UpdatedAt.IsZero() {
		st.UpdatedAt = st.CreatedAt
	}
	p := &st
	r.st.statuses = append(r.st.statuses, p)
	s.nodes[st.NodeID] = nodeRef{kind: "StatusContext", v: p}
	return st
}

// AddPR seeds a pull request. Number 0 takes the next free number; a Head
// branch that does not exist yet is created at HeadSHA (and Base at BaseSHA).
func (r *Repo) AddPR(p PullRequest) (*PR, error) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	ps, err := r.s.createPullLocked(r.st, p)
	if err != nil {
		return nil, err
	}
	return &PR{s: r.s, p: ps}, nil
}

// PR returns the handle of a seeded pull request.
func (r *Repo) PR(number int) (*PR, bool) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	p := r.st.pull(number)
	if p == nil {
		return nil, false
	}
	return &PR{s: r.s, p: p}, true
}

func (st *repoState) pull(number int) *pullState {
	for _, p := range st.pulls {
		if p.pr.Number == number {
			return p
		}
	}
	return nil
}

func (s *Server) createPullLocked(st *repoState, p PullRequest) (*pullState, error) {
	if p.Head == "" {
		return nil, fmt.Errorf("ghsim: pull request needs a head branch")
	}
	if p.Base == "" {
		p.Base = st.defaultBranch
	}
	if p.HeadSHA != "" {
		if _, ok := st.branches[p.Head]; !ok && p.HeadRepo == "" {
			st.branches[p.Head] = p.HeadSHA
			s.addCommitLocked(Commit{SHA: p.HeadSHA})
		}
	}
	if p.BaseSHA != "" {
		if _, ok := st.branches[p.Base]; !ok {
			st.branches[p.Base] = p.BaseSHA
			s.addCommitLocked(Commit{SHA: p.BaseSHA})
		}
	}
	if _, ok := st.branches[p.Base]; !ok {
		return nil, fmt.Errorf("ghsim: base branch %q does not exist", p.Base)
	}
	if p.HeadRepo == "" {
		if _, ok := st.branches[p.Head]; !ok {
			return nil, fmt.Errorf("ghsim: head branch %q does not exist", p.Head)
		}
	}
	if p.Number == 0 {
		p.Number = 1
		for _, q := range st.pulls {
			if q.pr.Number >= p.Number {
				p.Number = q.pr.Number + 1
			}
		}
	} else if st.pull(p.Number) != nil {
		return nil, fmt.Errorf("ghsim: pull request #%d exists", p.Number)
	}
	if p.Author.Login == "" && p.Author.ID == 0 {
		p.Author = *s.accounts[s.viewer]
	}
	p.Author = *s.accountLocked(p.Author)
	if p.ID == 0 {
		p.ID = s.ids.take("pull")
	}
	if p.NodeID == "" {
		p.NodeID = s.ids.node(prefixPull)
	}
	if p.State == "" {
		p.State = "open"
	}
	if p.Mergeable == "" {
		p.Mergeable = "MERGEABLE"
	}
	if p.MergeStateStatus == "" {
		p.MergeStateStatus = "CLEAN"
		if p.Draft {
			p.MergeStateStatus = "DRAFT"
		}
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.now()
	}
	if p.UpdatedAt.IsZero() {
		p.UpdatedAt = p.CreatedAt
	}
	ps := &pullState{repo: st, pr: p, commentReacts: map[int64][]*Reaction{}}
	ps.commits = []string{s.headSHALocked(ps)}
	st.pulls = append(st.pulls, ps)
	sort.Slice(st.pulls, func(i, j int) bool { return st.pulls[i].pr.Number < st.pulls[j].pr.Number })
	s.nodes[p.NodeID] = nodeRef{kind: "PullRequest", v: ps, pull: ps}
	s.gatesPushedLocked(ps, ps.commits[0]) // CI runs on the opened PR's head
	return ps, nil
}

// headSHALocked is the live tip of the PR's head branch.
func (s *Server) headSHALocked(p *pullState) string {
	if p.pr.HeadRepo != "" {
		if hr, ok := s.repos[strings.ToLower(p.pr.HeadRepo)]; ok {
			if sha, ok := hr.branches[p.pr.Head]; ok {
				return sha
			}
		}
		return p.pr.HeadSHA
	}
	if sha, ok := p.repo.branches[p.pr.Head]; ok {
		return sha
	}
	return p.pr.HeadSHA
}

func (s *Server) baseSHALocked(p *pullState) string {
	return p.repo.branches[p.pr.Base]
}

// pushedLocked records a new head: GitHub re-anchors commit_id of review
// comments on threads that are still current, and keeps original_commit_id.
func (s *Server) pushedLocked(p *pullState, sha string) {
	if len(p.commits) > 0 && p.commits[len(p.commits)-1] == sha {
		return
	}
	p.commits = append(p.commits, sha)
	p.pr.UpdatedAt = s.now()
	for _, t := range p.threads {
		if t.t.Outdated {
			continue
		}
		for _, c := range t.comments {
			c.CommitID = sha
		}
	}
	s.gatesPushedLocked(p, sha)
}

func short(sha string, n int) string {
	if len(sha) < n {
		return sha
	}
	return sha[:n]
}

func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
