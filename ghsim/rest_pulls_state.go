package ghsim

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// Closing and merging a pull request as a human (or another tool) does it
// on GitHub: PATCH /pulls/{pull_number} ("Update a pull request") and PUT
// /pulls/{pull_number}/merge ("Merge a pull request"). The product never
// calls them; they let a test change the world under a running loop the
// way GitHub would (pr-closed, pr-merged halts).

const (
	docUpdatePull = docPulls + "#update-a-pull-request"
	docMergePull  = docPulls + "#merge-a-pull-request"
)

// MergeRequest is what a Merger is asked to do: merge Head into Base in
// the repository FullName with a merge commit carrying Title and Message.
type MergeRequest struct {
	FullName   string // owner/name
	Base, Head string // branch names
	BaseSHA    string // the base tip the merge starts from
	HeadSHA    string // the head tip being merged
	Title      string
	Message    string
	Method     string // merge, squash or rebase
}

// Merger makes the merge commit of a REST merge and moves the base branch
// in the repository's git storage, returning the new base tip. It runs
// under the simulator's lock: it must not call back into the Server.
type Merger func(MergeRequest) (sha string, err error)

// SetMerger installs the git side of merges (ghsim/testbed wires its git
// server). Without one the simulator records a synthetic merge commit.
func (s *Server) SetMerger(m Merger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.merger = m
}

type updatePullBody struct {
	Title *string `json:"title"`
	Body  *string `json:"body"`
	State *string `json:"state"`
	Base  *string `json:"base"`
}

// updatePull edits title, body, state (open/closed) and base. A merged PR
// cannot be reopened, and reopening is refused while another open PR has
// the same head and base, as on GitHub.
func (s *Server) updatePull(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	var in updatePullBody
	if !c.decodeBody(&in) {
		return
	}
	invalid := func(field string) {
		c.validationFailed(docUpdatePull, map[string]any{"resource": "PullRequest", "field": field, "code": "invalid"})
	}
	if in.State != nil && *in.State != "open" && *in.State != "closed" {
		invalid("state")
		return
	}
	if in.Base != nil {
		if _, ok := p.repo.branches[*in.Base]; !ok || *in.Base == "" {
			invalid("base")
			return
		}
	}
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		c.validationFailed(docUpdatePull, map[string]any{"resource": "PullRequest", "field": "title", "code": "missing_field"})
		return
	}
	if in.State != nil && *in.State == "open" && p.pr.State == "closed" {
		if p.pr.Merged {
			c.validationFailed(docUpdatePull, map[string]any{"resource": "PullRequest", "code": "custom",
				"message": "state cannot be changed. The pull request has been merged."})
			return
		}
		for _, q := range p.repo.pulls {
			if q != p && q.pr.State == "open" && q.pr.HeadRepo == p.pr.HeadRepo && q.pr.Head == p.pr.Head && q.pr.Base == p.pr.Base {
				c.validationFailed(docUpdatePull, map[string]any{"resource": "PullRequest", "code": "custom",
					"message": "A pull request already exists for " + p.repo.owner.Login + ":" + p.pr.Head + "."})
				return
			}
		}
	}
	if in.Title != nil {
		p.pr.Title = *in.Title
	}
	if in.Body != nil {
		p.pr.Body = *in.Body
	}
	if in.Base != nil {
		p.pr.Base = *in.Base
	}
	if in.State != nil {
		p.pr.State = *in.State
	}
	p.pr.UpdatedAt = s.now()
	c.sendJSON(http.StatusOK, s.pullJSON(p, true))
}

type mergePullBody struct {
	CommitTitle   *string `json:"commit_title"`
	CommitMessage *string `json:"commit_message"`
	SHA           *string `json:"sha"`
	MergeMethod   *string `json:"merge_method"`
}

// mergePull merges an open, mergeable PR: 405 when it is closed, a draft,
// conflicting or blocked by its merge gates; 409 when sha is not the head;
// 422 for an unknown merge_method. Success closes the PR as merged and
// moves the base branch to the merge commit (through the Merger when one
// is installed), answering {sha, merged, message}.
func (s *Server) mergePull(c *call) {
	p := c.pullLocked()
	if p == nil {
		return
	}
	var in mergePullBody
	if c.r.ContentLength != 0 && !c.decodeBody(&in) {
		return
	}
	method := "merge"
	if in.MergeMethod != nil {
		method = *in.MergeMethod
	}
	if method != "merge" && method != "squash" && method != "rebase" {
		c.validationFailed(docMergePull, map[string]any{"resource": "PullRequest", "field": "merge_method", "code": "invalid"})
		return
	}
	head := s.headSHALocked(p)
	switch {
	case p.pr.State != "open" || p.pr.Mergeable == "CONFLICTING":
		c.sendError(http.StatusMethodNotAllowed, "Pull Request is not mergeable", docMergePull)
		return
	case p.pr.Draft:
		c.sendError(http.StatusMethodNotAllowed, "Pull Request is still a draft", docMergePull)
		return
	case p.pr.MergeStateStatus == "BLOCKED" || p.pr.MergeStateStatus == "BEHIND" || p.pr.MergeStateStatus == "DIRTY":
		c.sendError(http.StatusMethodNotAllowed, "Pull Request is not mergeable", docMergePull)
		return
	case in.SHA != nil && *in.SHA != head:
		c.sendError(http.StatusConflict, "Head branch was modified. Review and try the merge again.", docMergePull)
		return
	}
	title := fmt.Sprintf("Merge pull request #%d from %s/%s", p.pr.Number, p.repo.owner.Login, p.pr.Head)
	if in.CommitTitle != nil && *in.CommitTitle != "" {
		title = *in.CommitTitle
	}
	message := p.pr.Title
	if in.CommitMessage != nil {
		message = *in.CommitMessage
	}
	req := MergeRequest{FullName: p.repo.fullName(), Base: p.pr.Base, Head: p.pr.Head,
		BaseSHA: s.baseSHALocked(p), HeadSHA: head, Title: title, Message: message, Method: method}
	var sha string
	if s.merger != nil {
		var err error
		if sha, err = s.merger(req); err != nil {
			c.sendError(http.StatusMethodNotAllowed, "Pull Request is not mergeable", docMergePull)
			return
		}
	} else {
		sum := sha1.Sum([]byte("merge\x00" + req.BaseSHA + "\x00" + req.HeadSHA + "\x00" + title))
		sha = hex.EncodeToString(sum[:])
	}
	s.addCommitLocked(Commit{SHA: sha, Message: title, Parents: []string{req.BaseSHA, req.HeadSHA}})
	// The PR closes before the base moves, so that moving the base is not
	// mistaken for a push to an open PR's head (same-branch PRs).
	p.pr.State, p.pr.Merged = "closed", true
	p.pr.UpdatedAt = s.now()
	old := p.repo.branches[p.pr.Base]
	s.setBranchLocked(p.repo, p.pr.Base, sha)
	p.repo.pushes = append(p.repo.pushes, Push{Ref: "refs/heads/" + p.pr.Base, Before: old, After: sha, At: s.now()})
	c.sendJSON(http.StatusOK, map[string]any{"sha": sha, "merged": true, "message": "Pull Request successfully merged"})
}
