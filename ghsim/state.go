package ghsim

import (
	"net/http"
	"slices"
	"time"
)

// StatePath serves the whole world as JSON (GET only, no token needed): a
// path GitHub does not have, so that an outside script driving a real
// gh-prloop process can count what it did — pull requests opened,
// comments posted, pushes accepted — without an API client. It reads the
// model directly, so it costs no rate limit, counts no request and never
// meets a fault.
const StatePath = "/_sim/state"

// State is the body of GET StatePath. Every list is sorted (repositories
// by name, then by pull request number, then by id or time) and never null.
type State struct {
	// Now is the simulator's clock (simulated time under a time scale), the
	// time every timestamp it writes follows.
	Now            string               `json:"now"`
	Pulls          []StatePull          `json:"pulls"`
	IssueComments  []StateComment       `json:"issue_comments"`
	Reviews        []StateReview        `json:"reviews"`
	ReviewComments []StateReviewComment `json:"review_comments"`
	Threads        []StateThread        `json:"threads"`
	Reactions      []StateReaction      `json:"reactions"`
	Pushes         []StatePush          `json:"pushes"`
	Branches       []StateBranch        `json:"branches"`
	CheckRuns      []StateCheckRun      `json:"check_runs"`
}

// StatePull is one pull request.
type StatePull struct {
	Repository string  `json:"repository"`
	Number     int     `json:"number"`
	Title      string  `json:"title"`
	Body       string  `json:"body"`
	Author     string  `json:"author"`
	State      string  `json:"state"`
	Draft      bool    `json:"draft"`
	Merged     bool    `json:"merged"`
	Base       string  `json:"base"`
	Head       string  `json:"head"`
	HeadRepo   string  `json:"head_repository,omitempty"`
	HeadSHA    string  `json:"head_sha"`
	BaseSHA    string  `json:"base_sha"`
	CreatedAt  *string `json:"created_at"`
	UpdatedAt  *string `json:"updated_at"`
	// The merge gates as GraphQL reports them (review_decision "" = null).
	Mergeable        string `json:"mergeable"`
	MergeStateStatus string `json:"merge_state_status"`
	ReviewDecision   string `json:"review_decision"`
}

// StateComment is one pull request conversation comment.
type StateComment struct {
	Repository string  `json:"repository"`
	Pull       int     `json:"pull"`
	ID         int64   `json:"id"`
	Author     string  `json:"author"`
	AuthorID   int64   `json:"author_id"`
	Body       string  `json:"body"`
	CreatedAt  *string `json:"created_at"`
	EditedAt   *string `json:"last_edited_at"`
}

// StateReview is one review.
type StateReview struct {
	Repository  string  `json:"repository"`
	Pull        int     `json:"pull"`
	ID          int64   `json:"id"`
	Author      string  `json:"author"`
	State       string  `json:"state"`
	CommitID    string  `json:"commit_id"`
	Body        string  `json:"body"`
	SubmittedAt *string `json:"submitted_at"`
}

// StateReviewComment is one inline review comment.
type StateReviewComment struct {
	Repository  string  `json:"repository"`
	Pull        int     `json:"pull"`
	ID          int64   `json:"id"`
	ReviewID    int64   `json:"review_id"`
	InReplyToID int64   `json:"in_reply_to_id,omitempty"`
	Thread      string  `json:"thread"`
	Author      string  `json:"author"`
	Path        string  `json:"path"`
	Line        int     `json:"line,omitempty"`
	CommitID    string  `json:"commit_id"`
	Body        string  `json:"body"`
	CreatedAt   *string `json:"created_at"`
}

// StateThread is one review thread.
type StateThread struct {
	Repository string  `json:"repository"`
	Pull       int     `json:"pull"`
	ID         string  `json:"id"`
	Path       string  `json:"path"`
	Line       int     `json:"line,omitempty"`
	Resolved   bool    `json:"resolved"`
	Outdated   bool    `json:"outdated"`
	Comments   []int64 `json:"comment_ids"`
	// RootAuthor wrote the thread's first comment; Replies are the others,
	// oldest first (never null).
	RootAuthor string             `json:"root_author"`
	Replies    []StateThreadReply `json:"replies"`
}

// StateThreadReply is a reply in a review thread.
type StateThreadReply struct {
	ID        int64   `json:"id"`
	Author    string  `json:"author"`
	Body      string  `json:"body"`
	CreatedAt *string `json:"created_at"`
}

// StateCheckRun is one check run.
type StateCheckRun struct {
	Repository  string  `json:"repository"`
	ID          int64   `json:"id"`
	HeadSHA     string  `json:"head_sha"`
	Name        string  `json:"name"`
	Status      string  `json:"status"`
	Conclusion  string  `json:"conclusion"`
	StartedAt   *string `json:"started_at"`
	CompletedAt *string `json:"completed_at"`
}

// StateReaction is one reaction, on the pull request (Comment 0) or on
// one of its conversation comments.
type StateReaction struct {
	Repository string  `json:"repository"`
	Pull       int     `json:"pull"`
	Comment    int64   `json:"comment_id,omitempty"`
	Content    string  `json:"content"`
	User       string  `json:"user"`
	CreatedAt  *string `json:"created_at"`
}

// StatePush is one ref update the git server accepted.
type StatePush struct {
	Repository string  `json:"repository"`
	Ref        string  `json:"ref"`
	Old        string  `json:"old"`
	New        string  `json:"new"`
	At         *string `json:"at"`
}

// StateBranch is one branch tip.
type StateBranch struct {
	Repository string `json:"repository"`
	Name       string `json:"name"`
	SHA        string `json:"sha"`
}

// Snapshot returns the whole world, as GET StatePath serves it.
func (s *Server) Snapshot() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	// What the bot and CI would have done by now is part of the world,
	// whether or not an API request has come in since.
	s.advanceWorldLocked(now)
	st := State{
		Now: now.Format(time.RFC3339), CheckRuns: []StateCheckRun{},
		Pulls: []StatePull{}, IssueComments: []StateComment{}, Reviews: []StateReview{},
		ReviewComments: []StateReviewComment{}, Threads: []StateThread{}, Reactions: []StateReaction{},
		Pushes: []StatePush{}, Branches: []StateBranch{},
	}
	keys := make([]string, 0, len(s.repos))
	for k := range s.repos {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		repo := s.repos[k]
		name := repo.fullName()
		branches := make([]string, 0, len(repo.branches))
		for b := range repo.branches {
			branches = append(branches, b)
		}
		slices.Sort(branches)
		for _, b := range branches {
			st.Branches = append(st.Branches, StateBranch{Repository: name, Name: b, SHA: repo.branches[b]})
		}
		for _, p := range repo.pushes {
			st.Pushes = append(st.Pushes, StatePush{Repository: name, Ref: p.Ref, Old: p.Before, New: p.After, At: stateTime(p.At)})
		}
		for _, cr := range repo.checkRuns {
			st.CheckRuns = append(st.CheckRuns, StateCheckRun{
				Repository: name, ID: cr.ID, HeadSHA: cr.HeadSHA, Name: cr.Name, Status: cr.Status,
				Conclusion: cr.Conclusion, StartedAt: stateTime(cr.StartedAt), CompletedAt: stateTime(cr.CompletedAt),
			})
		}
		pulls := slices.Clone(repo.pulls)
		slices.SortFunc(pulls, func(a, b *pullState) int { return a.pr.Number - b.pr.Number })
		for _, p := range pulls {
			s.snapshotPullLocked(&st, name, p)
		}
	}
	return st
}

func (s *Server) snapshotPullLocked(st *State, repo string, p *pullState) {
	pr := s.pullDataLocked(p)
	n := pr.Number
	st.Pulls = append(st.Pulls, StatePull{
		Repository: repo, Number: n, Title: pr.Title, Body: pr.Body, Author: pr.Author.Login,
		State: pr.State, Draft: pr.Draft, Merged: pr.Merged, Base: pr.Base, Head: pr.Head,
		HeadRepo: pr.HeadRepo, HeadSHA: pr.HeadSHA, BaseSHA: pr.BaseSHA, CreatedAt: stateTime(pr.CreatedAt),
		UpdatedAt: stateTime(pr.UpdatedAt), Mergeable: pr.Mergeable, MergeStateStatus: pr.MergeStateStatus,
		ReviewDecision: pr.ReviewDecision,
	})
	for _, r := range p.reactions {
		st.Reactions = append(st.Reactions, StateReaction{Repository: repo, Pull: n, Content: r.Content, User: r.User.Login, CreatedAt: stateTime(r.CreatedAt)})
	}
	for _, c := range p.comments {
		st.IssueComments = append(st.IssueComments, StateComment{
			Repository: repo, Pull: n, ID: c.ID, Author: c.Author.Login, AuthorID: c.Author.ID, Body: c.Body,
			CreatedAt: stateTime(c.CreatedAt), EditedAt: stateTime(c.LastEditedAt),
		})
		for _, r := range p.commentReacts[c.ID] {
			st.Reactions = append(st.Reactions, StateReaction{Repository: repo, Pull: n, Comment: c.ID, Content: r.Content, User: r.User.Login, CreatedAt: stateTime(r.CreatedAt)})
		}
	}
	for _, r := range p.reviews {
		st.Reviews = append(st.Reviews, StateReview{
			Repository: repo, Pull: n, ID: r.ID, Author: r.Author.Login, State: r.State, CommitID: r.CommitID,
			Body: r.Body, SubmittedAt: stateTime(r.SubmittedAt),
		})
	}
	for _, c := range p.reviewComments {
		st.ReviewComments = append(st.ReviewComments, StateReviewComment{
			Repository: repo, Pull: n, ID: c.ID, ReviewID: c.ReviewID, InReplyToID: c.InReplyToID, Thread: c.ThreadID,
			Author: c.Author.Login, Path: c.Path, Line: c.Line, CommitID: c.CommitID, Body: c.Body, CreatedAt: stateTime(c.CreatedAt),
		})
	}
	for _, t := range p.threads {
		ids := make([]int64, 0, len(t.comments))
		replies := []StateThreadReply{}
		for i, c := range t.comments {
			ids = append(ids, c.ID)
			if i > 0 {
				replies = append(replies, StateThreadReply{ID: c.ID, Author: c.Author.Login, Body: c.Body, CreatedAt: stateTime(c.CreatedAt)})
			}
		}
		root := ""
		if len(t.comments) > 0 {
			root = t.comments[0].Author.Login
		}
		st.Threads = append(st.Threads, StateThread{
			Repository: repo, Pull: n, ID: t.t.NodeID, Path: t.t.Path, Line: t.t.Line,
			Resolved: t.t.Resolved, Outdated: t.t.Outdated, Comments: ids, RootAuthor: root, Replies: replies,
		})
	}
}

func stateTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	v := t.UTC().Format(time.RFC3339)
	return &v
}

func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body := encodeJSON(s.Snapshot())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}
