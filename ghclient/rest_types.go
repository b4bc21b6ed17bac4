package ghclient

import (
	"encoding/json"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
)

// REST wire shapes: only the fields prloop reads, decoded from GitHub's
// documented examples (see rest_decode_test.go).

type restUser struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

func (u *restUser) actor() observe.Actor {
	if u == nil {
		return observe.Actor{}
	}
	return observe.Actor{Login: u.Login, ID: u.ID, Type: u.Type}
}

type restRepoRef struct {
	FullName string `json:"full_name"`
}

type restBranchRef struct {
	Ref  string       `json:"ref"`
	SHA  string       `json:"sha"`
	Repo *restRepoRef `json:"repo"`
}

type restPull struct {
	Number         int64            `json:"number"`
	NodeID         string           `json:"node_id"`
	HTMLURL        string           `json:"html_url"`
	Title          string           `json:"title"`
	Body           *string          `json:"body"`
	State          string           `json:"state"`
	Draft          bool             `json:"draft"`
	Merged         *bool            `json:"merged"`
	MergedAt       *string          `json:"merged_at"`
	Mergeable      *json.RawMessage `json:"mergeable"` // nil: absent (list); "null": not computed yet
	MergeableState string           `json:"mergeable_state"`
	Head           restBranchRef    `json:"head"`
	Base           restBranchRef    `json:"base"`
	User           *restUser        `json:"user"`
}

// PRInfo is a pull request as the REST API describes it. Fields REST does
// not report are empty: ReviewDecision always, and Mergeable and
// MergeStateStatus in list answers.
type PRInfo struct {
	observe.PullRequest
	NodeID   string `json:"node_id"`
	HeadRepo string `json:"head_repo"` // owner/name; "" when the head repository is gone
	BaseRepo string `json:"base_repo"`
	// AuthorID is the database id of the account that opened the PR (0
	// when GitHub did not say): the executor only reuses its own PR.
	AuthorID int64 `json:"author_id"`
}

func (p *restPull) info() PRInfo {
	var out PRInfo
	out.Number = p.Number
	out.URL = p.HTMLURL
	out.Title = p.Title
	out.Body = str(p.Body)
	out.IsDraft = p.Draft
	out.BaseRefName, out.BaseSHA = p.Base.Ref, p.Base.SHA
	out.HeadRefName, out.HeadSHA = p.Head.Ref, p.Head.SHA
	out.NodeID = p.NodeID
	if p.User != nil {
		out.AuthorID = p.User.ID
	}
	if p.Head.Repo != nil {
		out.HeadRepo = p.Head.Repo.FullName
	}
	if p.Base.Repo != nil {
		out.BaseRepo = p.Base.Repo.FullName
	}
	// A deleted head repository cannot be the base repository.
	out.IsCrossRepository = out.HeadRepo == "" || !strings.EqualFold(out.HeadRepo, out.BaseRepo)
	switch {
	case p.State == "open":
		out.State = "OPEN"
	case (p.Merged != nil && *p.Merged) || p.MergedAt != nil:
		out.State = "MERGED"
	case p.State == "closed":
		out.State = "CLOSED"
	}
	if p.Mergeable != nil {
		switch strings.TrimSpace(string(*p.Mergeable)) {
		case "true":
			out.Mergeable = "MERGEABLE"
		case "false":
			out.Mergeable = "CONFLICTING"
		case "null":
			out.Mergeable = "UNKNOWN"
		}
	}
	out.MergeStateStatus = strings.ToUpper(p.MergeableState)
	return out
}

type restIssueComment struct {
	ID        int64     `json:"id"`
	NodeID    string    `json:"node_id"`
	User      *restUser `json:"user"`
	Body      string    `json:"body"`
	CreatedAt string    `json:"created_at"`
	UpdatedAt string    `json:"updated_at"`
}

// observe maps a REST issue comment; REST has no last_edited_at.
func (c *restIssueComment) observe() observe.IssueComment {
	return observe.IssueComment{ID: c.ID, NodeID: c.NodeID, Author: c.User.actor(), Body: c.Body, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

type restReaction struct {
	Content   string    `json:"content"`
	User      *restUser `json:"user"`
	CreatedAt string    `json:"created_at"`
}

type restCheckRuns struct {
	TotalCount int `json:"total_count"`
	CheckRuns  []*struct {
		Name       string  `json:"name"`
		Status     string  `json:"status"`
		Conclusion *string `json:"conclusion"`
	} `json:"check_runs"`
}

type restCombinedStatus struct {
	State      string `json:"state"`
	SHA        string `json:"sha"`
	TotalCount int    `json:"total_count"`
	Statuses   []*struct {
		Context string `json:"context"`
		State   string `json:"state"`
	} `json:"statuses"`
}

type restGitRef struct {
	Ref    string `json:"ref"`
	Object *struct {
		Type string `json:"type"`
		SHA  string `json:"sha"`
	} `json:"object"`
}

// BranchRule is one rule that applies to a branch (GET .../rules/branches/B).
// Parameters stay raw: each rule type has its own shape.
type BranchRule struct {
	Type              string          `json:"type"`
	RulesetSourceType string          `json:"ruleset_source_type"`
	RulesetSource     string          `json:"ruleset_source"`
	RulesetID         int64           `json:"ruleset_id"`
	Parameters        json.RawMessage `json:"parameters,omitempty"`
}

// CombinedStatus is the legacy commit-status view of one ref.
type CombinedStatus struct {
	State    string                 `json:"state"` // success, failure, pending
	SHA      string                 `json:"sha"`
	Statuses []observe.CommitStatus `json:"statuses"`
}
